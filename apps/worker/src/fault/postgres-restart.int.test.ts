import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, createPgPool, type Db, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRuns, spawnWorker, ThrowawayPostgres, type WorkerProcess } from '../testing/fault-harness';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { createToolCallsTable, testToolSpecs } from '../testing/test-tools';

/**
 * Fault test: the Postgres server (a throwaway cluster, never the shared one) crashes mid-run
 * (`pg_ctl stop -m immediate`: no checkpoint, WAL recovery on start) and comes back. Writes in
 * flight fail, jobs retry, leases are re-taken: every run must finish with a sound log and no
 * non-idempotent call executed twice.
 */

const RUNS = 16;
let pg: ThrowawayPostgres;
let db: Db;
let pool: PgPool;
let client: TestClient;
const workers: WorkerProcess[] = [];
const prefix = uniquePrefix('pg');
const logDir = mkdtempSync(join(tmpdir(), 'looplane-pg-restart-'));

/** Polls through the outage: a probe that throws (connection refused) just means "not yet". */
const tolerant =
  <T>(probe: () => Promise<T>) =>
  () =>
    probe().catch(() => undefined);

beforeAll(async () => {
  pg = await ThrowawayPostgres.create();
  db = createDb(pg.url, { poolSize: 4 });
  pool = createPgPool(pg.url, { max: 4 });
  await createToolCallsTable(pool);
  client = await createTestClient(prefix);
});

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await client?.close();
  await db?.$disconnect();
  await pool?.end();
  await pg?.destroy();
});

describe('fault: Postgres restart', () => {
  it(`finishes ${RUNS} runs when Postgres crashes mid-run and restarts`, { timeout: 150_000 }, async () => {
    const teamId = await createTestTeam(db, { maxConcurrentRuns: 100 });
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'echo', args: { text: 'a' } }] },
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'slow', args: { ms: 200 } }] },
      { calls: [{ tool: 'record', args: {} }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(db, teamId, { script, thinkMs: 400 });
    const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
    const runs: { runId: string; sessionId: string }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await createTestRun(db, agent, { config }));
    const runIds = runs.map((r) => r.runId);

    for (let i = 0; i < 2; i++) {
      workers.push(
        spawnWorker(
          {
            DATABASE_URL: pg.url,
            REDIS_URL: testRedisUrl,
            QUEUE_PREFIX: prefix,
            WORKER_CONCURRENCY: '20',
            LEASE_TTL_MS: '4000',
            RECONCILE_INTERVAL_MS: '500',
            RECONCILE_IDLE_MS: '3000',
          },
          join(logDir, `worker-${i}.log`),
        ),
      );
    }
    await Promise.all(workers.map((w) => w.ready));
    for (const run of runs) await client.enqueue({ ...run, reason: 'start' });

    await waitFor(async () => (await db.event.count({ where: { runId: { in: runIds }, type: 'tool.finished' } })) >= RUNS, 20_000, 'runs to be under way');
    const eventsAtCrash = await db.event.count({ where: { runId: { in: runIds } } });
    await pg.stop('immediate');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await pg.start();
    const restartedAt = Date.now();

    const unfinished = () => db.run.count({ where: { id: { in: runIds }, status: { notIn: ['succeeded', 'failed', 'cancelled'] } } });
    await waitFor(
      tolerant(async () => (await unfinished()) === 0),
      100_000,
      'every run to finish',
    );

    const audit = await auditRuns(db, pool, runIds);
    console.info(`Postgres restart fault test: ${JSON.stringify({ ...audit, eventsAtCrash, secondsToFinishAfterRestart: (Date.now() - restartedAt) / 1000 })}`);
    expect(audit.statuses).toEqual({ succeeded: RUNS });
    expect(audit.logProblems).toEqual([]);
    expect(audit.duplicateExecutions).toEqual([]);
    expect(audit.unloggedExecutions).toEqual([]);
    expect(workers.every((w) => w.child.exitCode === null)).toBe(true);
  });
});
