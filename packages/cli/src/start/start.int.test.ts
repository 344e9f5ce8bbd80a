import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort, isPortFree } from './free-port';
import { processStartTime } from './proc';

/**
 * The real `looplane start`, fully embedded (no DATABASE_URL / REDIS_URL), in a temporary
 * LOOPLANE_HOME. An up-to-date dashboard build in apps/web/.next is reused whatever the home (its
 * fingerprint lives in the build); otherwise the first start builds it (minutes on a cold machine).
 */

const bin = fileURLToPath(new URL('../../bin/looplane.mjs', import.meta.url));
const parent = await mkdtemp(join(tmpdir(), 'looplane-start-'));
await chmod(parent, 0o755); // Postgres runs as the `postgres` user when we are root.
const home = join(parent, 'home');
const port = await findFreePort();

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

function start(): Running {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', LOOPLANE_HOME: home, PORT: String(port) };
  const child = spawn(process.execPath, [bin, 'start'], { env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(running: Running, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | null | undefined;
  void running.exited.then((code) => (exitedWith = code));
  for (;;) {
    const match = running.output().match(pattern);
    if (match) return match;
    if (exitedWith !== undefined) throw new Error(`looplane start exited (${exitedWith}) before ${pattern}:\n${running.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Proc {
  pid: number;
  ppid: number;
  startTime: number;
  cmdline: string;
}

function processes(): Proc[] {
  const result: Proc[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      result.push({ pid: Number(entry), ppid: Number(fields[1]), startTime: Number(fields[19]), cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return result;
}

/** Every live descendant of `root`. */
function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const pid = frontier.pop()!;
    for (const proc of all.filter((p) => p.ppid === pid)) {
      found.push(proc);
      frontier.push(proc.pid);
    }
  }
  return found;
}

/** Live processes whose command line mentions the home or the port. */
function mentioning(): Proc[] {
  const portPattern = new RegExp(`(^|[^0-9])${port}([^0-9]|$)`);
  return processes().filter((p) => p.pid !== process.pid && (p.cmdline.includes(home) || portPattern.test(p.cmdline)));
}

describe('looplane start (fully embedded)', () => {
  it(
    'starts, answers /api/health, prints how to sign in, and leaves nothing behind after SIGINT',
    async () => {
      const running = start();
      const line = await waitForOutput(running, /Looplane is running at (http:\/\/localhost:(\d+)) — sign in as admin@looplane\.local\n {2}password: (\S+)\n/, 330_000);
      expect(line[2]).toBe(String(port));
      expect(line[3]!.length).toBeGreaterThanOrEqual(12);
      // Also printed as soon as it was created, before anything that could still fail.
      expect(running.output()).toContain(`Created the admin admin@looplane.local with the generated password ${line[3]}\n`);

      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'up', redis: 'up' });

      const tree = descendants(running.child.pid!);
      const names = tree.map((p) => p.cmdline).join('\n');
      expect(names).toContain(join(home, 'postgres'));
      expect(names).toContain('redis-server');
      expect(names).toContain(join('apps', 'worker', 'dist', 'main.mjs'));
      expect(tree.length).toBeGreaterThanOrEqual(4);

      running.child.kill('SIGINT');
      expect(await running.exited).toBe(0);
      expect(running.output()).toContain('Looplane stopped.');

      const survivors = tree.filter((p) => processStartTime(p.pid) === p.startTime);
      expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
      expect(mentioning().map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
      expect(await isPortFree(port)).toBe(true);
      expect(existsSync(join(home, 'run.json'))).toBe(false);
      const secrets = JSON.parse(await readFile(join(home, 'secrets.json'), 'utf8'));
      expect(Object.keys(secrets).sort()).toEqual(['encryptionKey', 'nextauthSecret', 'postgresPassword']);
    },
    360_000,
  );

  it(
    'restarts on the same data without a new password, and stops everything when a child dies',
    async () => {
      const running = start();
      await waitForOutput(running, /Looplane is running at http:\/\/localhost:\d+ — sign in as admin@looplane\.local\n {2}password: the one set/, 120_000);
      expect(running.output()).not.toContain('Building the dashboard');

      const tree = descendants(running.child.pid!);
      const worker = tree.find((p) => p.cmdline.includes(join('apps', 'worker', 'dist', 'main.mjs')))!;
      process.kill(worker.pid, 'SIGKILL');
      expect(await running.exited).toBe(1);
      expect(running.output()).toMatch(/error: worker was killed by SIGKILL unexpectedly/);

      const survivors = tree.filter((p) => processStartTime(p.pid) === p.startTime);
      expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
      expect(mentioning().map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
      expect(await readdir(home)).toContain('postgres');
    },
    180_000,
  );
});
