import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePrefix, waitFor } from '../testing/test-runtime';

/** The real worker process: its sandbox probe at start, recorded for the Settings page. */

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const workerDir = fileURLToPath(new URL('../..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'looplane-worker-start-'));
chmodSync(root, 0o711);
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
  await rm(root, { recursive: true, force: true });
});

function runWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: workerDir,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.url, REDIS_URL: redisUrl, LOG_LEVEL: 'info', QUEUE_PREFIX: uniquePrefix('sandbox-start'), ...env },
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const lines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown> & { msg: string });
  return { child, exited, lines, output: () => stdout };
}

type ProbeRow = {
  workerId: string;
  selectedDriver: string;
  available: boolean;
  reason: string | null;
  drivers: { driver: string; available: boolean; reason: string | null; offered: boolean }[];
  stoppedAt: Date | null;
};

describe('worker start with the sandbox', () => {
  it('a driver that does not work: the worker still starts, logs the reason and records it; SIGTERM marks the probe stopped', async () => {
    const worker = runWorker({ LOOPLANE_SANDBOX_DRIVER: 'dangerous-none', NODE_ENV: 'production', LOOPLANE_WORKSPACE_ROOT: join(root, 'none') });
    const ready = await waitFor(() => worker.lines().find((l) => l.msg === 'worker ready'), 30_000, 'worker ready');
    const workerId = (ready.worker as { id: string }).id;
    expect(ready.tools).toEqual(expect.arrayContaining(['edit_file', 'http_request', 'list_files', 'read_file', 'search_files', 'shell', 'write_file']));
    const logged = worker.lines().find((l) => l.msg.startsWith('sandbox unavailable'));
    expect(logged).toMatchObject({ driver: 'dangerous-none', reason: expect.stringContaining('only in development (this is production)') });
    const row = await waitFor(
      async () => {
        const rows = await t.db.$queryRaw<ProbeRow[]>`SELECT * FROM "WorkerSandboxProbe" WHERE "workerId" = ${workerId}`;
        return rows[0] && rows[0].drivers.length === 5 ? rows[0] : undefined;
      },
      30_000,
      'every driver probed',
    );
    expect(row).toMatchObject({ selectedDriver: 'dangerous-none', available: false, reason: expect.stringContaining('only in development') });
    // Weakest isolation first; only its default is offered (dangerous-none offers nothing besides).
    expect(row.drivers.map((d) => [d.driver, d.offered])).toEqual([
      ['bwrap', false],
      ['podman', false],
      ['gvisor', false],
      ['microvm', false],
      ['dangerous-none', true],
    ]);
    expect(row.drivers[0]).toMatchObject({ driver: 'bwrap', available: true });
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const [stopped] = await t.db.$queryRaw<ProbeRow[]>`SELECT * FROM "WorkerSandboxProbe" WHERE "workerId" = ${workerId}`;
    expect(stopped?.stoppedAt).toBeInstanceOf(Date);
  }, 60_000);

  it('rejects an unknown driver with one line naming the variable', async () => {
    const worker = runWorker({ LOOPLANE_SANDBOX_DRIVER: 'docker' });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toBe('Invalid environment: LOOPLANE_SANDBOX_DRIVER must be one of bwrap, podman, gvisor, microvm, dangerous-none\n');
  });
});
