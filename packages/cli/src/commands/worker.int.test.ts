import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { callerAs, createAgentFixture, createTeamFixture, createTestLive, testRedisUrl, type TestLive } from '@looplane/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, waitForOutput } from '../testing/looplane-process';
import { WORKER_NEEDS_URLS } from '../start/run-worker';

/** The real `looplane worker` against a test database and Redis, as on an extra host. */

let t: TestDatabase;
let live: TestLive;
let home: string;

beforeAll(async () => {
  t = await createTestDatabase();
  // The API's queue lives under a prefix of its own: the worker joins it through QUEUE_PREFIX.
  live = await createTestLive();
  home = await mkdtemp(join(tmpdir(), 'looplane-worker-'));
});
afterAll(async () => {
  await live?.close();
  await t?.drop();
  await rm(home, { recursive: true, force: true });
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('looplane worker', () => {
  it('announces itself, serves a run created through the API, and exits 0 on SIGTERM', async () => {
    const prefix = live.queue.opts.prefix!;
    const worker = spawnCli(['worker'], { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, LOOPLANE_HOME: home, LOG_LEVEL: 'info' });
    // Its own JSON log lines, unprefixed (a log shipper reads them as they are).
    const ready = await waitForOutput(worker, /^\{.*"msg":"worker ready".*\}$/m, 60_000);
    expect(JSON.parse(ready[0])).toMatchObject({ worker: { concurrency: 50 }, workspaceStore: 'postgres' });
    expect(worker.output()).not.toContain('worker | ');

    const fx = await createTeamFixture(t.db);
    const agent = await createAgentFixture(t.db, fx.teamId);
    const api = await callerAs({ db: t.db, dispatch: live.dispatch }, { userId: fx.members.operator.id });
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'say hello' });
    const status = await until(async () => {
      const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ['succeeded', 'failed', 'cancelled'].includes(run.status) ? run.status : undefined;
    }, 30_000);
    expect(status).toBe('succeeded');

    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.output()).toBe(0);
    expect(worker.output()).toContain('Stopping the worker (SIGTERM)');
    expect(worker.output()).toContain('"msg":"worker stopped"');
  }, 120_000);

  it('refuses with one line when DATABASE_URL or REDIS_URL is missing', async () => {
    const missingOne: Record<string, string>[] = [{ REDIS_URL: testRedisUrl }, { DATABASE_URL: t.url }];
    for (const env of missingOne) {
      const worker = spawnCli(['worker'], { LOOPLANE_HOME: home, ...env });
      expect(await worker.exited).toBe(1);
      expect(worker.output()).toBe(`error: ${WORKER_NEEDS_URLS}\n`);
    }
  });
});
