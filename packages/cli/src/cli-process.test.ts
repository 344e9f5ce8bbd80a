import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from './start/free-port';

const bin = fileURLToPath(new URL('../bin/looplane.mjs', import.meta.url));
const homes: string[] = [];

/** Runs the real `looplane` binary with exactly `env` (plus PATH/HOME). */
function looplane(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function tempHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-cli-'));
  homes.push(dir);
  return join(dir, 'home');
}

afterAll(async () => {
  await Promise.all(homes.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('looplane start (process)', () => {
  it('prints one clear line and exits 1 for a malformed PORT', async () => {
    const home = await tempHome();
    const { code, stdout, stderr } = await looplane(['start'], { PORT: 'abc', LOOPLANE_HOME: home });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: Invalid environment: PORT must be a port number between 1 and 65535 (got "abc")\n');
    expect(existsSync(home)).toBe(false);
  });

  it('prints one clear line and exits 1 for a malformed DATABASE_URL', async () => {
    const { code, stderr } = await looplane(['start'], { DATABASE_URL: 'mysql://root@db/looplane', LOOPLANE_HOME: await tempHome() });
    expect(code).toBe(1);
    expect(stderr).toBe('error: Invalid environment: DATABASE_URL must be a postgres:// connection URL\n');
  });

  it('fails fast with a clear message when the port is taken, touching nothing', async () => {
    const port = await findFreePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const home = await tempHome();
      const startedAt = Date.now();
      const { code, stderr } = await looplane(['start'], { PORT: String(port), LOOPLANE_HOME: home });
      expect(code).toBe(1);
      expect(stderr).toBe(`error: port ${port} is already in use: stop whatever listens on it, or set PORT to a free port\n`);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(existsSync(home)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('exits 2 for an unknown command', async () => {
    const { code, stderr } = await looplane(['bogus'], {});
    expect(code).toBe(2);
    expect(stderr).toBe('error: unknown command "bogus". Run `looplane --help` to list the commands.\n');
  });
});
