import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The first start may build the web app before it serves.
const READY_TIMEOUT_MS = 4 * 60_000;
const STOP_TIMEOUT_MS = 30_000;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
}

async function waitForHealth(baseURL: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`looplane start exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${log.slice(-4000)}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(3000) });
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${baseURL}/api/health was not 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${last}); log: ${logFile}`);
}

/** Starts `looplane start` unless E2E_BASE_URL points at a running server; returns the teardown. */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) return undefined;

  const port = await freePort();
  const home = await mkdtemp(join(tmpdir(), 'looplane-e2e-'));
  // mkdtemp makes it 0700; the embedded Postgres runs as its own user (when we are root) and must enter it.
  await chmod(home, 0o755);
  const adminPassword = `e2e-admin-${randomBytes(6).toString('hex')}`;
  const bootstrapToken = `llp_e2e_${randomBytes(24).toString('base64url')}`;
  const logFile = join(home, 'looplane-start.log');
  const log = createWriteStream(logFile);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    LOOPLANE_HOME: home,
    LOOPLANE_ADMIN_PASSWORD: adminPassword,
    LOOPLANE_BOOTSTRAP_TOKEN: bootstrapToken,
  };
  // The embedded stack is the point of this run.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;

  const child = spawn(process.execPath, ['packages/cli/bin/looplane.mjs', 'start'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
    log.end();
  };

  try {
    await waitForHealth(baseURL, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_ADMIN_PASSWORD = adminPassword;
  process.env.E2E_BOOTSTRAP_TOKEN = bootstrapToken;
  // Specs that check what does not depend on the worker's disk (session files) reach into it.
  process.env.E2E_LOOPLANE_HOME = home;
  return stop;
}
