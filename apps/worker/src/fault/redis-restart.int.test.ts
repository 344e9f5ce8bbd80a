import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRuns, freePort, PrivateRedis, spawnWorker, type WorkerProcess } from '../testing/fault-harness';
import { createTestClient, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { createToolCallsTable, testToolSpecs } from '../testing/test-tools';

/**
 * Fault test: a private redis-server (never the shared one) is killed mid-run and restarted
 * empty: every queued job and every live subscription is gone. Runs in flight must go on
 * (Postgres holds the truth), queued runs must be found again by the reconciler, and the live
 * bus must work again after the restart.
 */

const RUNS = 20;
let t: TestDatabase;
let pool: PgPool;
let redis: PrivateRedis;
let client: TestClient;
const workers: WorkerProcess[] = [];
const logDir = mkdtempSync(join(tmpdir(), 'looplane-redis-'));

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 4 });
  await createToolCallsTable(pool);
  redis = new PrivateRedis(await freePort());
  await redis.start();
});

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await client?.close().catch(() => undefined);
  await redis?.kill();
  await pool?.end();
  await t?.drop();
});

describe('fault: Redis restart', () => {
  it(`finishes ${RUNS} runs when Redis dies mid-run and comes back empty`, { timeout: 150_000 }, async () => {
    const prefix = uniquePrefix('redis');
    const teamId = await createTestTeam(t.db, { maxConcurrentRuns: 100 });
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'echo', args: { text: 'a' } }] },
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'slow', args: { ms: 200 } }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(t.db, teamId, { script, thinkMs: 350 });
    const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
    const runs: { runId: string; sessionId: string }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await createTestRun(t.db, agent, { config }));

    // Two loops per worker, four in all: at most four of the twenty runs are under way before
    // every run has produced its three tool results, so a kill after the fifth result finds at
    // least twelve still queued in Redis, however slowly the machine runs (a count, not a timing).
    for (let i = 0; i < 2; i++) {
      workers.push(
        spawnWorker(
          {
            DATABASE_URL: t.url,
            REDIS_URL: redis.url,
            QUEUE_PREFIX: prefix,
            WORKER_CONCURRENCY: '2',
            LEASE_TTL_MS: '3000',
            RECONCILE_INTERVAL_MS: '300',
            RECONCILE_IDLE_MS: '1500',
          },
          join(logDir, `worker-${i}.log`),
        ),
      );
    }
    await Promise.all(workers.map((w) => w.ready));
    client = await createTestClient(prefix, redis.url);
    await client.follow(teamId);
    for (const run of runs) await client.enqueue({ ...run, reason: 'start' });

    await waitFor(
      async () => (await t.db.event.count({ where: { runId: { in: runs.map((r) => r.runId) }, type: 'tool.finished' } })) >= 5,
      20_000,
      'runs to be under way',
    );
    await redis.kill();
    // Read right after the kill: a session still idle had not been started, its job was in the Redis that died.
    const atKill = await t.db.session.groupBy({ by: ['status'], where: { runId: { in: runs.map((r) => r.runId) } }, _count: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await redis.start();
    const restartedAt = Date.now();

    const unfinished = () => t.db.run.count({ where: { id: { in: runs.map((r) => r.runId) }, status: { notIn: ['succeeded', 'failed', 'cancelled'] } } });
    await waitFor(async () => (await unfinished()) === 0, 90_000, 'every run to finish');
    await new Promise((resolve) => setTimeout(resolve, 300));

    const audit = await auditRuns(
      t.db,
      pool,
      runs.map((r) => r.runId),
    );
    const liveAfterRestart = client.activity.filter((a) => a.kind === 'run.status' && a.status === 'succeeded').length;
    console.info(
      `Redis restart fault test: ${JSON.stringify({ ...audit, sessionsAtKill: atKill, secondsToFinishAfterRestart: (Date.now() - restartedAt) / 1000, liveNoticesAfterRestart: liveAfterRestart })}`,
    );
    expect(audit.statuses).toEqual({ succeeded: RUNS });
    expect(audit.logProblems).toEqual([]);
    expect(audit.duplicateExecutions).toEqual([]);
    expect(audit.unloggedExecutions).toEqual([]);
    // Some runs were still queued (their jobs died with Redis) and were found again.
    expect(atKill.find((g) => g.status === 'idle')?._count ?? 0).toBeGreaterThan(0);
    // The live bus works again: runs that finished after the restart were announced.
    expect(liveAfterRestart).toBeGreaterThan(0);
    // Both workers survived the outage.
    expect(workers.every((w) => w.child.exitCode === null)).toBe(true);
  });
});
