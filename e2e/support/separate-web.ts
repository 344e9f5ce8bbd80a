import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForHealth } from './health';

/**
 * A second production web server on the database, Redis and secrets of the `looplane start`
 * stack, but with a LOOPLANE_HOME of its own that no worker uses: the dashboard as it runs on
 * another host than the workers, which must read session files from the workspace store.
 */
export interface SeparateWeb {
  url: string;
  /** Its LOOPLANE_HOME (fresh and empty when it started). */
  home: string;
  /** Stops its whole process group; resolves when no process of it is left. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;

/**
 * The environment `looplane start` gave its web, read back from /proc (the web's pid is in
 * `<home>/run.json`): exactly what the first web got (DATABASE_URL with the embedded Postgres's
 * port and password, REDIS_URL with the private Redis's, NEXTAUTH_SECRET, LOOPLANE_ENCRYPTION_KEY, product settings),
 * without a second copy of how start builds it that could drift.
 */
async function firstWebEnv(stackHome: string): Promise<Record<string, string>> {
  const run = JSON.parse(await readFile(join(stackHome, 'run.json'), 'utf8')) as { children: Array<{ name: string; pid: number }> };
  const web = run.children.find((child) => child.name === 'web');
  if (!web) throw new Error(`${stackHome}/run.json records no web process`);
  const environ = await readFile(`/proc/${web.pid}/environ`, 'utf8');
  const env: Record<string, string> = {};
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NEXTAUTH_SECRET', 'LOOPLANE_ENCRYPTION_KEY', 'LOOPLANE_HOME']) {
    if (!env[name]) throw new Error(`the first web (pid ${web.pid}) has no ${name} in its environment`);
  }
  return env;
}

/** Live (non-zombie) processes of group `pgid`, from /proc: kill(-pgid, 0) also counts zombies. */
async function groupMembers(pgid: number): Promise<number[]> {
  const members: number[] = [];
  for (const entry of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (stat && fields[0] !== 'Z' && fields[0] !== 'X' && Number(fields[2]) === pgid) members.push(Number(entry));
  }
  return members;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function groupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await groupMembers(pgid)).length > 0) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * Starts the web's server (`apps/web/dist/server.mjs`, as `looplane start` does) on `port`, with
 * the first web's environment except: its own empty LOOPLANE_HOME, no LOOPLANE_WORKSPACE_ROOT, no
 * supervisor state file (both name the worker's disk), its own PORT and NEXTAUTH_URL, and
 * LOOPLANE_TRUSTED_PROXIES=127.0.0.1: it stands for a web behind a reverse proxy on this machine,
 * so a test can say who the client is (X-Forwarded-For) and that it came over https. Its own
 * process group, so stopping it also stops whatever it forked. Resolves once its /api/health is 200.
 */
export async function startSeparateWeb(options: { repoRoot: string; stackHome: string; port: number }): Promise<SeparateWeb> {
  const env = await firstWebEnv(options.stackHome);
  const home = await mkdtemp(join(tmpdir(), 'looplane-e2e-web-'));
  const url = `http://127.0.0.1:${options.port}`;
  delete env.LOOPLANE_WORKSPACE_ROOT;
  delete env.LOOPLANE_SUPERVISOR_STATE;
  Object.assign(env, { LOOPLANE_HOME: home, NEXTAUTH_URL: url, PORT: String(options.port), HOST: '127.0.0.1', LOOPLANE_TRUSTED_PROXIES: '127.0.0.1' });

  // The log sits beside its home, not in it: the spec checks what the web itself put there.
  const logFile = `${home}.log`;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [join(options.repoRoot, 'apps', 'web', 'dist', 'server.mjs')], {
    cwd: join(options.repoRoot, 'apps', 'web'),
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pgid = child.pid!;

  const stop = async () => {
    signalGroup(pgid, 'SIGTERM');
    if (!(await groupGone(pgid, STOP_GRACE_MS))) {
      signalGroup(pgid, 'SIGKILL');
      if (!(await groupGone(pgid, 5000))) throw new Error(`the separate web's process group ${pgid} outlived SIGKILL`);
    }
    log.end();
  };
  try {
    await waitForHealth('the separate web', url, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, home, stop };
}
