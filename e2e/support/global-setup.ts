import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForHealth } from './health';
import { startSeparateWeb, type SeparateWeb } from './separate-web';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const STOP_TIMEOUT_MS = 30_000;

function exited(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
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
    // The webhook specs deliver to a receiver they start on 127.0.0.1.
    LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: 'true',
    // The endpoints spec points an OpenAI-compatible endpoint at a dead port on loopback.
    LOOPLANE_ENDPOINTS_ALLOW: '127.0.0.1:9',
    // The worker offers every rung above its bwrap default, so the demo agents run on each (sandbox-levels.spec.ts).
    LOOPLANE_SANDBOX_DRIVERS: 'gvisor,microvm',
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

  let separateWeb: SeparateWeb;
  try {
    await waitForHealth('looplane start', baseURL, child, logFile);
    separateWeb = await startSeparateWeb({ repoRoot: REPO_ROOT, stackHome: home, port: await freePort() });
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_ADMIN_PASSWORD = adminPassword;
  process.env.E2E_BOOTSTRAP_TOKEN = bootstrapToken;
  // Specs that check what does not depend on the worker's disk (session files) reach into it.
  process.env.E2E_LOOPLANE_HOME = home;
  // The dashboard on another LOOPLANE_HOME than the worker's (the session-files specs use it).
  process.env.E2E_SEPARATE_WEB_URL = separateWeb.url;
  process.env.E2E_SEPARATE_WEB_HOME = separateWeb.home;
  return async () => {
    // Before the stack: the second web holds connections to its Postgres and Redis.
    try {
      await separateWeb.stop();
    } finally {
      await stop();
    }
  };
}
