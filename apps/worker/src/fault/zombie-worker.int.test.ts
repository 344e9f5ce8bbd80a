import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRuns, spawnWorker, type WorkerProcess } from '../testing/fault-harness';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { createToolCallsTable, testToolSpecs } from '../testing/test-tools';

/**
 * Fault test: a zombie. A worker process is frozen (SIGSTOP) while it holds runs, long enough for
 * its leases to expire and another worker to take the runs over; then it is thawed (SIGCONT) with
 * its model calls and tools completing as if nothing happened. Every write it attempts must be
 * fenced off, and the runs must finish exactly once on the other worker.
 */

const RUNS = 6;
let t: TestDatabase;
let pool: PgPool;
let client: TestClient;
const workers: WorkerProcess[] = [];
const prefix = uniquePrefix('zombie');
const logDir = mkdtempSync(join(tmpdir(), 'looplane-zombie-'));
const env = () => ({
  DATABASE_URL: t.url,
  REDIS_URL: testRedisUrl,
  QUEUE_PREFIX: prefix,
  LEASE_TTL_MS: '1500',
  RECONCILE_INTERVAL_MS: '300',
  RECONCILE_IDLE_MS: '3000',
});

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 4 });
  await createToolCallsTable(pool);
  client = await createTestClient(prefix);
});

afterAll(async () => {
  for (const w of workers) {
    w.child.kill('SIGCONT');
    w.child.kill('SIGKILL');
  }
  await Promise.all(workers.map((w) => w.exited));
  await client?.close();
  await pool?.end();
  await t?.drop();
});

describe('fault: zombie worker', () => {
  it('fences off a frozen worker whose leases were taken over, and the runs finish exactly once', { timeout: 120_000 }, async () => {
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'slow', args: { ms: 400 } }] },
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'echo', args: { text: 'x' } }] },
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'slow', args: { ms: 300 } }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(t.db, await createTestTeam(t.db), { script, thinkMs: 600 });
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await createTestRun(t.db, agent, { config: { tools: testToolSpecs, toolLoading: 'eager' } }));
    const runIds = runs.map((r) => r.runId);

    const zombie = spawnWorker(env(), join(logDir, 'zombie.log'));
    workers.push(zombie);
    const zombieId = await zombie.ready;
    for (const run of runs) await client.enqueue({ ...run, reason: 'start' });
    await waitFor(async () => (await t.db.session.count({ where: { leaseOwner: zombieId } })) === RUNS, 15_000, 'the zombie to hold every run');
    await waitFor(async () => (await t.db.event.count({ where: { runId: { in: runIds }, type: 'tool.started' } })) >= RUNS, 15_000, 'work under way');
    zombie.child.kill('SIGSTOP');
    const frozenAt = Date.now();
    const eventsAtFreeze = await t.db.event.count({ where: { runId: { in: runIds } } });

    const successor = spawnWorker(env(), join(logDir, 'successor.log'));
    workers.push(successor);
    const successorId = await successor.ready;
    await waitFor(
      async () => (await t.db.session.count({ where: { runId: { in: runIds }, OR: [{ leaseOwner: successorId }, { status: 'succeeded' }] } })) === RUNS,
      30_000,
      'the successor to take every run over',
    );
    const frozenSeconds = (Date.now() - frozenAt) / 1000;
    const eventsAtThaw = await t.db.event.count({ where: { runId: { in: runIds } } });
    zombie.child.kill('SIGCONT');

    await waitFor(async () => (await t.db.run.count({ where: { id: { in: runIds }, status: 'succeeded' } })) === RUNS, 60_000, 'every run to finish');
    // Give the thawed zombie time to try (and fail) every write it had in flight.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const audit = await auditRuns(t.db, pool, runIds);
    const fenced = zombie
      .output()
      .split('\n')
      .filter((l) => l.includes('lost the session lease')).length;
    console.info(`zombie fault test: ${JSON.stringify({ ...audit, eventsAtFreeze, frozenSeconds, eventsAtThaw, zombieWritesFenced: fenced })}`);
    expect(audit.statuses).toEqual({ succeeded: RUNS });
    expect(audit.logProblems).toEqual([]);
    expect(audit.duplicateExecutions).toEqual([]);
    expect(audit.unloggedExecutions).toEqual([]);
    expect(audit.takeovers).toBe(RUNS);
    expect(fenced).toBe(RUNS);
    expect(zombie.child.exitCode).toBeNull();
  });
});
