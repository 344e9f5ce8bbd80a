// The product the run-page benchmark opens: one already running (--base-url with --token,
// --password and --database-url), or `looplane start` on a fresh LOOPLANE_HOME, started the way
// e2e/support/global-setup.ts starts it (embedded Postgres and Redis, a bootstrap token).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The first start may build the dashboard before it serves.
const READY_TIMEOUT_MS = 4 * 60_000;

export interface Product {
  baseURL: string;
  token: string;
  password: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHealth(baseURL: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`looplane start exited (${child.exitCode ?? child.signalCode}):\n${(await readFile(logFile, 'utf8').catch(() => '')).slice(-4000)}`);
    }
    const ok = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${baseURL}/api/health was not 200 within ${READY_TIMEOUT_MS / 1000} s; log: ${logFile}`);
}

/** The DATABASE_URL `looplane start` gave its web (the web's pid is in `<home>/run.json`). */
async function webDatabaseUrl(home: string): Promise<string> {
  const run = JSON.parse(await readFile(join(home, 'run.json'), 'utf8')) as { children: Array<{ name: string; pid: number }> };
  const web = run.children.find((c) => c.name === 'web');
  if (!web) throw new Error(`${home}/run.json records no web process`);
  const entry = (await readFile(`/proc/${web.pid}/environ`, 'utf8')).split('\0').find((e) => e.startsWith('DATABASE_URL='));
  if (!entry) throw new Error(`the web (pid ${web.pid}) has no DATABASE_URL`);
  return entry.slice('DATABASE_URL='.length);
}

/** Starts `looplane start` on a free port and a fresh home; `stop` ends it and everything it started. */
export async function startProduct(): Promise<Product> {
  const port = await freePort();
  const home = await mkdtemp(join(tmpdir(), 'looplane-bench-web-'));
  // The embedded Postgres runs as its own user when we are root and must enter it.
  await chmod(home, 0o755);
  const password = `bench-${randomBytes(6).toString('hex')}`;
  const token = `llp_bench_${randomBytes(24).toString('base64url')}`;
  const logFile = join(home, 'looplane-start.log');
  const log = createWriteStream(logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    LOOPLANE_HOME: home,
    LOOPLANE_ADMIN_PASSWORD: password,
    LOOPLANE_BOOTSTRAP_TOKEN: token,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['packages/cli/bin/looplane.mjs', 'start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await new Promise((done) => child.once('exit', done));
      clearTimeout(timer);
    }
    log.end();
  };
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseURL, child, logFile);
    return { baseURL, token, password, databaseUrl: await webDatabaseUrl(home), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A tRPC call over HTTP with the bearer token (superjson wire format: `{ json: ... }`). */
export async function trpc<T>(product: Pick<Product, 'baseURL' | 'token'>, path: string, input: unknown, mutation = false): Promise<T> {
  const headers = { Authorization: `Bearer ${product.token}`, 'Content-Type': 'application/json' };
  const response = mutation
    ? await fetch(`${product.baseURL}/api/trpc/${path}`, { method: 'POST', headers, body: JSON.stringify({ json: input }) })
    : await fetch(`${product.baseURL}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers });
  const body = (await response.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!response.ok || !body.result) throw new Error(`${path}: ${response.status} ${JSON.stringify(body.error ?? body)}`);
  return body.result.data.json;
}
