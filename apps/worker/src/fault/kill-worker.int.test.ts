import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../build.mjs';
import { auditRuns, jitter, spawnWorker, type WorkerProcess } from '../testing/fault-harness';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { createToolCallsTable, testToolSpecs } from '../testing/test-tools';

/**
 * Fault test: SIGKILL real worker processes at random moments while 30 runs execute, replacing
 * each killed worker at once. Every run must finish, with a sound log (no event lost or
 * duplicated) and no non-idempotent tool call executed twice. The workers run the production
 * bundle (build.mjs) under plain node, as `looplane start` and the container run them.
 */

const RUNS = 30;
const MAX_KILLS = 10;
const WORKERS = 2;

let t: TestDatabase;
let pool: PgPool;
let client: TestClient;
const prefix = uniquePrefix('kill');
const logDir = mkdtempSync(join(tmpdir(), 'looplane-kill-'));
const workers = new Set<WorkerProcess>();
const readyIds = new Map<WorkerProcess, string>();
let spawned = 0;
let bundle: string;

function startWorker(): WorkerProcess {
  const worker = spawnWorker(
    {
      DATABASE_URL: t.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: prefix,
      WORKER_CONCURRENCY: '40',
      LEASE_TTL_MS: '1500',
      RECONCILE_INTERVAL_MS: '300',
      RECONCILE_IDLE_MS: '3000',
      DATABASE_POOL_SIZE: '8',
    },
    join(logDir, `worker-${++spawned}.log`),
    [],
    bundle,
  );
  workers.add(worker);
  void worker.ready.then((id) => readyIds.set(worker, id));
  void worker.exited.then(() => workers.delete(worker));
  return worker;
}

beforeAll(async () => {
  bundle = (await buildWorker())['worker-with-test-tools'];
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 4 });
  await createToolCallsTable(pool);
  client = await createTestClient(prefix);
});

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await Promise.all([...workers].map((w) => w.exited));
  await client?.close();
  await pool?.end();
  await t?.drop();
});

describe('fault: kill -9 of worker processes', () => {
  it(`finishes ${RUNS} runs with sound logs while workers are SIGKILLed at random points`, { timeout: 180_000 }, async () => {
    const teamId = await createTestTeam(t.db, { maxConcurrentRuns: 100 });
    // Eight turns of tool calls: non-idempotent `record` and `slow` (records after sleeping), idempotent `echo`.
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'record', args: {} }] },
      {
        calls: [
          { tool: 'echo', args: { text: 'a' } },
          { tool: 'record', args: {} },
        ],
      },
      { calls: [{ tool: 'slow', args: { ms: 250 } }] },
      { calls: [{ tool: 'record', args: {} }] },
      {
        calls: [
          { tool: 'slow', args: { ms: 150 } },
          { tool: 'echo', args: { text: 'b' } },
        ],
      },
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'echo', args: { text: 'c' } }] },
      { finish: 'all steps done' },
    ];
    const agents = [
      await createTestAgent(t.db, teamId, { script, thinkMs: 250, chunkDelayMs: 20 }),
      await createTestAgent(t.db, teamId, { script, thinkMs: 450 }),
    ];
    const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
    const runs: { runId: string; sessionId: string }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await createTestRun(t.db, agents[i % 2]!, { config }));

    for (let i = 0; i < WORKERS; i++) startWorker();
    await Promise.all([...workers].map((w) => w.ready));
    const started = performance.now();
    // Runs arrive in waves, so kills land at every stage of a run's life.
    const enqueueing = (async () => {
      for (let i = 0; i < RUNS; i += 5) {
        for (const run of runs.slice(i, i + 5)) await client.enqueue({ ...run, reason: 'start' });
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    })();

    const unfinished = () => t.db.run.count({ where: { id: { in: runs.map((r) => r.runId) }, status: { notIn: ['succeeded', 'failed', 'cancelled'] } } });
    const kills: { heldSessions: number; heldToolCalls: number }[] = [];
    while (kills.length < MAX_KILLS && (await unfinished()) > 0) {
      await new Promise((resolve) => setTimeout(resolve, jitter(600, 1600)));
      // A random worker among those holding sessions right now (any live one if none does).
      const live = [...workers].flatMap((w) => (w.child.exitCode === null && readyIds.has(w) ? [{ w, id: readyIds.get(w)! }] : []));
      const holding = await t.db.session.groupBy({ by: ['leaseOwner'], where: { status: 'running', leaseOwner: { in: live.map((l) => l.id) } }, _count: true });
      const candidates = holding.length > 0 ? live.filter((l) => holding.some((h) => h.leaseOwner === l.id)) : live;
      const pick = candidates[Math.floor(Math.random() * candidates.length)];
      if (!pick) continue;
      const { w: victim, id } = pick;
      victim.child.kill('SIGKILL');
      await victim.exited;
      // What the dead worker held: sessions, and tool calls it had started but not finished.
      const held = await t.db.session.findMany({ where: { leaseOwner: id, status: 'running' }, select: { id: true, lastSeq: true } });
      const lastEvents = await Promise.all(held.map((h) => t.db.event.findFirst({ where: { sessionId: h.id, seq: h.lastSeq } })));
      kills.push({ heldSessions: held.length, heldToolCalls: lastEvents.filter((e) => e?.type === 'tool.started').length });
      startWorker();
    }
    await enqueueing;
    await waitFor(async () => (await unfinished()) === 0, 120_000, 'every run to finish');
    const elapsed = (performance.now() - started) / 1000;

    const audit = await auditRuns(
      t.db,
      pool,
      runs.map((r) => r.runId),
    );
    const summary = {
      ...audit,
      kills: kills.length,
      killsWhileHoldingSessions: kills.filter((k) => k.heldSessions > 0).length,
      sessionsHeldByKilledWorkers: kills.reduce((n, k) => n + k.heldSessions, 0),
      killsMidToolCall: kills.reduce((n, k) => n + k.heldToolCalls, 0),
      workersSpawned: spawned,
      elapsedSeconds: Number(elapsed.toFixed(1)),
    };
    console.info(`kill -9 fault test: ${JSON.stringify(summary)}`);
    expect(audit.statuses).toEqual({ succeeded: RUNS });
    expect(audit.logProblems).toEqual([]);
    expect(audit.duplicateExecutions).toEqual([]);
    expect(audit.unloggedExecutions).toEqual([]);
    expect(summary.kills).toBeGreaterThanOrEqual(5);
    expect(summary.sessionsHeldByKilledWorkers).toBeGreaterThan(0);
  });
});
