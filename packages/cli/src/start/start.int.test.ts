import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants, mentioning as mentioningAny, spawnCli, waitForOutput } from '../testing/looplane-process';
import { findFreePort, isPortFree } from './free-port';
import { processStartTime } from './proc';

/**
 * The real `looplane start`, fully embedded (no DATABASE_URL / REDIS_URL), in a temporary
 * LOOPLANE_HOME. An up-to-date dashboard build in apps/web/.next is reused whatever the home (its
 * fingerprint lives in the build); otherwise the first start builds it (minutes on a cold machine).
 */

const parent = await mkdtemp(join(tmpdir(), 'looplane-start-'));
await chmod(parent, 0o755); // Postgres runs as the `postgres` user when we are root.
const home = join(parent, 'home');
const port = await findFreePort();

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const token = `llp_start_${randomBytes(12).toString('hex')}`;
const start = () => spawnCli(['start'], { LOOPLANE_HOME: home, PORT: String(port), LOOPLANE_BOOTSTRAP_TOKEN: token });
const demoRepo = join(home, 'repos', 'demo-repo.git');

/** git or node with no user configuration; returns the exit code and the output. */
function run(command: string, args: string[], cwd = parent) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_GLOBAL: '/dev/null' } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}
const git = (...args: string[]) => run('git', args).output.trim();

/** `npm test` of a fresh clone of the demo repository at `branch`: its exit code. */
async function demoTestsAt(branch: string): Promise<number | null> {
  const clone = await mkdtemp(join(parent, 'clone-'));
  try {
    expect(run('git', ['clone', '-q', '--branch', branch, `file://${demoRepo}`, clone]).code).toBe(0);
    return run('npm', ['test'], clone).code;
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}

/** The summary node's test runner prints (TAP `# tests 3`, or the spec reporter's `ℹ tests 3`). */
const TESTS_RAN = /\S+ tests 3\n/;

/** The REST API with the bootstrap token. */
async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${path}: ${response.status} ${await response.clone().text()}`).toBe(true);
  return (await response.json()) as T;
}

async function poll<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 300))) {
    const value = await read();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The local addresses of the TCP sockets listening on `port`, from /proc/net/tcp and tcp6. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (existsSync(file) ? readFileSync(file, 'utf8') : '').split('\n').slice(1)) {
      const [, local = '', , state] = line.trim().split(/\s+/);
      const [address = '', localPort] = local.split(':');
      if (localPort !== hexPort || state !== '0A') continue;
      // IPv4 as little-endian hex; IPv6 shown as is (any would be a surprise here).
      addresses.push(
        address.length === 8
          ? (address.match(/../g) ?? [])
              .reverse()
              .map((b) => parseInt(b, 16))
              .join('.')
          : address,
      );
    }
  }
  return addresses;
}
const mentioning = () => mentioningAny(home, port);

describe('looplane start (fully embedded)', () => {
  it('starts, answers /api/health, prints how to sign in, and leaves nothing behind after SIGINT', async () => {
    const running = start();
    const line = await waitForOutput(
      running,
      /Looplane is running at (http:\/\/localhost:(\d+)) — sign in as admin@looplane\.local\n {2}password: (\S+)\n/,
      330_000,
    );
    expect(line[2]).toBe(String(port));
    expect(line[3]!.length).toBeGreaterThanOrEqual(12);
    // Also printed as soon as it was created, before anything that could still fail.
    expect(running.output()).toContain(`Created the admin admin@looplane.local with the generated password ${line[3]}\n`);

    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up', redis: 'up' });
    // This machine only by default, and the banner says so.
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(running.output()).toContain(`  listening on 127.0.0.1:${port} only (this machine); set HOST=0.0.0.0 to open it to other machines\n`);

    const tree = descendants(running.child.pid!);
    const names = tree.map((p) => p.cmdline).join('\n');
    expect(names).toContain(join(home, 'postgres'));
    expect(names).toContain('redis-server');
    // The private Redis wants a password, which no command line shows.
    const redisPassword = JSON.parse(await readFile(join(home, 'secrets.json'), 'utf8')).redisPassword as string;
    expect(redisPassword.length).toBeGreaterThanOrEqual(16);
    expect(names).not.toContain(redisPassword);
    expect(names).toContain(join('apps', 'worker', 'dist', 'main.mjs'));
    expect(tree.length).toBeGreaterThanOrEqual(4);

    // The demo repository, with its failing test; the demo-repo agent fixes it through the real
    // worker and bwrap, and its push to fix/slugify waits for an approver under the demo policy.
    expect(running.output()).toContain(`Created the demo repository ${demoRepo}`);
    const main = git('-C', demoRepo, 'rev-parse', 'main');
    expect(await demoTestsAt('main')).not.toBe(0);
    const { runId } = await api<{ runId: string }>('/runs', { agentName: 'demo-repo', goal: 'Make the tests pass' });
    const approval = await poll('the push to wait for an approver', async () => {
      const { items } = await api<{ items: Array<{ id: string; tool: string | null }> }>(`/approvals?status=pending&runId=${runId}`);
      return items[0];
    });
    expect(approval.tool).toBe('publish_branch');
    expect(git('-C', demoRepo, 'branch', '--list', 'fix/slugify')).toBe('');
    await api(`/approvals/${approval.id}/decision`, { decision: 'approve' });
    const finished = await poll('the run to end', async () => {
      const runNow = await api<{ status: string; error: string | null }>(`/runs/${runId}`);
      return ['succeeded', 'failed', 'cancelled'].includes(runNow.status) ? runNow : undefined;
    });
    expect(finished.status, finished.error ?? '').toBe('succeeded');
    expect(git('-C', demoRepo, 'log', '-1', '--format=%s%n%P', 'fix/slugify').split('\n')).toEqual(['Fix slugify', main]);
    expect(await demoTestsAt('fix/slugify')).toBe(0);
    // Seeded from the repository, and npm test ran inside the sandbox: failing, then passing.
    const { events } = await api<{ events: Array<{ type: string; payload: { url?: string; ok?: boolean; output?: string } }> }>(
      `/runs/${runId}/events?limit=1000`,
    );
    expect(events.find((e) => e.type === 'workspace.seeded')?.payload.url).toBe(`file://${demoRepo}`);
    const outputs = events.filter((e) => e.type === 'tool.finished').map((e) => e.payload.output ?? '');
    expect(outputs.find((o) => TESTS_RAN.test(o))).toMatch(/pass 1\n\S+ fail 2/);
    expect(outputs.filter((o) => TESTS_RAN.test(o)).at(-1)).toMatch(/pass 3\n\S+ fail 0/);

    running.child.kill('SIGINT');
    expect(await running.exited).toBe(0);
    expect(running.output()).toContain('Looplane stopped.');

    const survivors = tree.filter((p) => processStartTime(p.pid) === p.startTime);
    expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(mentioning().map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(await isPortFree(port)).toBe(true);
    expect(existsSync(join(home, 'run.json'))).toBe(false);
    const secrets = JSON.parse(await readFile(join(home, 'secrets.json'), 'utf8'));
    expect(Object.keys(secrets).sort()).toEqual(['encryptionKey', 'nextauthSecret', 'postgresPassword', 'redisPassword']);
  }, 360_000);

  it('restarts on the same data without a new password, and stops everything when redis dies', async () => {
    const running = start();
    await waitForOutput(running, /Looplane is running at http:\/\/localhost:\d+ — sign in as admin@looplane\.local\n {2}password: the one set/, 120_000);
    expect(running.output()).not.toContain('Building the dashboard');
    // The demo repository is kept as it is, with what the demo agent pushed.
    expect(running.output()).not.toContain('Created the demo repository');
    expect(git('-C', demoRepo, 'log', '-1', '--format=%s', 'fix/slugify')).toBe('Fix slugify');

    // The web and the worker are restarted when they die (supervision.int.test.ts); Redis is not.
    const tree = descendants(running.child.pid!);
    const redis = tree.find((p) => p.cmdline.includes('redis-server'))!;
    process.kill(redis.pid, 'SIGKILL');
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(/error: redis was killed by SIGKILL unexpectedly/);

    const survivors = tree.filter((p) => processStartTime(p.pid) === p.startTime);
    expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(mentioning().map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(await readdir(home)).toContain('postgres');
  }, 180_000);
});
