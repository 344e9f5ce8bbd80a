// Waiting is free: N runs parked on the real approval gate (the team's policy holds the `record`
// tool for an approver; the faux model calls it first thing), then R of them approved in bulk
// through `approvals.decideMany` (the API's own procedure, 100 ids per call, its maximum).
// Measures the worker's RSS before and after parking (a parked run holds no job, no lease and no
// loop, so it should add ~nothing), and the time from the first decideMany call until all R runs
// have succeeded. Checks that every approved call ran exactly once and no parked one ran at all.
// The whole scenario is repeated (5 times, 1 at --quick; a fresh database and worker each) and the
// last line is one JSON line with the figures, medians over the repetitions, in the results format.
// Run: `npx tsx bench/waiting/waiting-is-free.ts [--quick] [--runs N] [--resume R] [--repeat N]`.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callerAs, createTestLive } from '@looplane/api/testing';
import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestRunsBulk, createTestTeam } from '@looplane/db/testing';
import { enqueueSessions } from '@looplane/queue';
import { createTestDatabase } from '@looplane/testkit';
import { buildWorker } from '../../apps/worker/build.mjs';
import { spawnWorker } from '../../apps/worker/src/testing/fault-harness';
import { testRedisUrl } from '../../apps/worker/src/testing/test-runtime';
import { TOOL_CALLS_TABLE, createToolCallsTable, testToolSpecs } from '../../apps/worker/src/testing/test-tools';
import { cpuSeconds, memory } from '../runtime/density';
import { waitingFigures } from './figures';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const RUNS = Number(option('runs') ?? (quick ? 200 : 10_000));
const RESUME = Math.min(RUNS, Number(option('resume') ?? (quick ? 50 : 1000)));
// Parked first and measured as "before", so code warm-up and pools are not counted as waiting's cost.
const WARM = Math.max(20, Math.round(RUNS / 50));
const CONCURRENCY = Number(option('concurrency') ?? 200);
// Each repetition is the whole scenario on a fresh database and worker: 5, 1 at --quick.
const REPEAT = Number(option('repeat') ?? (quick ? 1 : 5));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (from: number) => (performance.now() - from) / 1000;

// The worker as production runs it: the bundle build.mjs makes, under plain node (built once, run fresh in every repetition).
const bundles = await buildWorker();

/** One repetition: a fresh database, queue and worker; N parked, R resumed. */
async function repetition() {
  const t = await createTestDatabase();
  const pool = createPgPool(t.url, { max: 4 });
  await createToolCallsTable(pool);
  // The API side: a real BullMQ queue and live bus (the dispatch the web app builds); the worker consumes that queue.
  const live = await createTestLive();
  const queue = live.queue;
  const prefix = queue.opts.prefix ?? 'bull';
  const policy = {
    version: 1,
    default: 'allow',
    rules: [{ id: 'hold-record', match: { tool: 'record' }, outcome: 'require_approval', reason: 'record writes outside the log', risk: 'high' }],
    approvals: { expiresAfterMinutes: 7 * 24 * 60 },
  };
  const teamId = await createTestTeam(t.db, { policy, maxConcurrentRuns: RUNS });
  const agent = await createTestAgent(t.db, teamId, { script: [{ calls: [{ tool: 'record', args: {} }] }, { finish: 'done' }] as never });
  const approver = await t.db.user.create({ data: { email: `approver-${prefix}@example.test` } });
  await t.db.membership.create({ data: { teamId, userId: approver.id, role: 'approver' } });
  // In chunks of 500 runs, each one atomic statement.
  const runs: Array<{ runId: string; sessionId: string }> = [];
  for (let made = 0; made < RUNS; made += 500) {
    runs.push(...(await createTestRunsBulk(pool, agent, Math.min(500, RUNS - made), { config: { tools: testToolSpecs, toolLoading: 'eager' } })));
  }

  const workDir = mkdtempSync(join(tmpdir(), 'looplane-waiting-'));
  const worker = spawnWorker(
    { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: String(CONCURRENCY), DATABASE_POOL_SIZE: '20' },
    join(workDir, 'worker.log'),
    ['--expose-gc', '--import', fileURLToPath(new URL('./gc-probe.mjs', import.meta.url))],
    bundles['worker-with-test-tools'],
  );
  // If the benchmark dies, its worker must not outlive it.
  process.on('exit', () => worker.child.kill('SIGTERM'));
  // A worker that cannot start would otherwise leave the benchmark waiting for "worker ready" forever.
  await Promise.race([
    worker.ready,
    worker.exited.then((code) => Promise.reject(new Error(`the worker exited with ${code}:\n${worker.output().slice(-2000)}`))),
  ]);
  const cold = memory(worker.pid).rss;

  const api = await callerAs({ db: t.db, dispatch: live.dispatch }, { userId: approver.id });

  const count = async (sql: string, values: unknown[] = []) => ((await pool.query({ text: sql, values })).rows[0] as { n: number }).n;
  const parked = (ids: string[]) =>
    count(
      `SELECT count(*)::int AS n FROM "Run" r JOIN "Approval" a ON a."runId" = r.id AND a.status = 'pending' WHERE r.status = 'waiting' AND r."waitReason" = 'approval' AND r.id = ANY($1)`,
      [ids],
    );

  /** Enqueues the runs' start jobs in bulk adds of 100 and waits until every one is parked on its approval. */
  async function park(batch: typeof runs): Promise<number> {
    const started = performance.now();
    const jobs = batch.map((run) => ({ ...run, reason: 'start' as const }));
    for (let i = 0; i < jobs.length; i += 1000) {
      await Promise.all(
        Array.from({ length: Math.ceil(Math.min(1000, jobs.length - i) / 100) }, (_, k) =>
          enqueueSessions(queue, jobs.slice(i + k * 100, Math.min(i + (k + 1) * 100, jobs.length))),
        ),
      );
    }
    const ids = batch.map((r) => r.runId);
    while ((await parked(ids)) < batch.length) {
      await sleep(250);
      if (seconds(started) > 900) throw new Error(`only ${await parked(ids)} of ${batch.length} runs parked in 900 s`);
    }
    return seconds(started);
  }

  /** RSS after the worker has been idle a moment, and its heap in use and RSS right after a full GC (gc-probe.ts). */
  async function settledRss(): Promise<{ rss: number; gcHeapUsed: number; gcRss: number }> {
    await sleep(3000);
    const rss = memory(worker.pid).rss;
    const seen = worker.output().length;
    worker.child.kill('SIGUSR2');
    for (let waited = 0; ; waited += 50) {
      const line = worker
        .output()
        .slice(seen)
        .split('\n')
        .find((l) => l.startsWith('{"gcProbe"'));
      if (line) {
        const probe = (JSON.parse(line) as { gcProbe: { heapUsed: number; rss: number } }).gcProbe;
        return { rss, gcHeapUsed: probe.heapUsed, gcRss: probe.rss };
      }
      if (waited > 10_000) throw new Error('the worker did not answer the GC probe');
      await sleep(50);
    }
  }

  await park(runs.slice(0, WARM));
  const before = await settledRss();
  const cpuBefore = cpuSeconds(worker.pid);
  const parkSeconds = await park(runs.slice(WARM));
  const parkCpu = cpuSeconds(worker.pid) - cpuBefore;
  const peakWhileParking = memory(worker.pid).peak;
  const after = await settledRss();
  // What a parked run holds: no lease, no job, nothing running.
  const leases = await count(`SELECT count(*)::int AS n FROM "Session" WHERE "leaseOwner" IS NOT NULL`);
  const activeJobs = await queue.getActiveCount();

  const toResume = runs.slice(0, RESUME).map((r) => r.runId);
  const approvals = await t.db.approval.findMany({ where: { runId: { in: toResume }, status: 'pending' }, select: { id: true } });
  const resumeStarted = performance.now();
  let decided = 0;
  for (let i = 0; i < approvals.length; i += 100) {
    decided += (await api.approvals.decideMany({ teamId, approvalIds: approvals.slice(i, i + 100).map((a) => a.id), decision: 'approve' })).decided;
  }
  const decideSeconds = seconds(resumeStarted);
  const succeeded = () => count(`SELECT count(*)::int AS n FROM "Run" WHERE status = 'succeeded' AND id = ANY($1)`, [toResume]);
  while ((await succeeded()) < RESUME) {
    await sleep(100);
    if (seconds(resumeStarted) > 600) throw new Error(`only ${await succeeded()} of ${RESUME} runs finished in 600 s`);
  }
  const resumeSeconds = seconds(resumeStarted);
  const executed = await count(`SELECT count(*)::int AS n FROM ${TOOL_CALLS_TABLE}`);
  const executedOnce = await count(`SELECT count(DISTINCT run_id)::int AS n FROM ${TOOL_CALLS_TABLE} WHERE run_id = ANY($1)`, [toResume]);
  const stillWaiting = await count(`SELECT count(*)::int AS n FROM "Run" WHERE status = 'waiting'`);
  const afterResume = memory(worker.pid).rss;

  worker.child.kill('SIGTERM');
  await worker.exited;
  await live.close();
  await pool.end();
  await t.drop();

  return {
    runs: RUNS,
    resumed: RESUME,
    rssMb: { cold, before: before.rss, after: after.rss, added: after.rss - before.rss, peakWhileParking, afterResume },
    /** Heap in use right after a full GC: what the worker keeps alive. */
    gcHeapUsedMb: { before: before.gcHeapUsed, after: after.gcHeapUsed, added: after.gcHeapUsed - before.gcHeapUsed },
    addedKbPerWaitingRun: { rss: ((after.rss - before.rss) * 1024) / (RUNS - WARM), liveHeap: ((after.gcHeapUsed - before.gcHeapUsed) * 1024) / (RUNS - WARM) },
    parkSeconds,
    parkedPerSecond: (RUNS - WARM) / parkSeconds,
    workerCpuMsPerPark: (parkCpu * 1000) / (RUNS - WARM),
    heldWhileWaiting: { leases, activeJobs },
    decideSeconds,
    resumeSeconds,
    resumedPerSecond: RESUME / resumeSeconds,
    decided,
    checks: { executed, executedOnce, stillWaiting, expectedWaiting: RUNS - RESUME },
    loadAverage: loadavg()[0] ?? 0,
    cold,
    before,
    after,
    peakWhileParking,
    afterResume,
    ok: decided === RESUME && executed === RESUME && executedOnce === RESUME && stillWaiting === RUNS - RESUME && leases === 0 && activeJobs === 0,
  };
}

console.log(
  `Waiting is free: ${RUNS} runs parked on an approval in one worker (concurrency ${CONCURRENCY}), ${RESUME} resumed by approvals.decideMany; ${REPEAT} repetition(s)\n`,
);
const mb = (x: number) => `${x.toFixed(0)} MB`;
const repetitions: Array<Awaited<ReturnType<typeof repetition>>> = [];
for (let i = 0; i < REPEAT; i++) {
  const r = await repetition();
  repetitions.push(r);
  const { cold, before, after, peakWhileParking, afterResume, heldWhileWaiting, decideSeconds, resumeSeconds, checks } = r;
  console.log(
    [
      `#${i + 1}:`,
      `  worker RSS: cold ${mb(cold)}; ${WARM} parked ${mb(before.rss)}; ${RUNS} parked ${mb(after.rss)} (+${mb(after.rss - before.rss)}, ${r.addedKbPerWaitingRun.rss.toFixed(2)} KB per waiting run); peak ${mb(peakWhileParking)}; after resume ${mb(afterResume)}`,
      `  worker heap in use after a full GC: ${WARM} parked ${mb(before.gcHeapUsed)}; ${RUNS} parked ${mb(after.gcHeapUsed)} (${r.gcHeapUsedMb.added >= 0 ? '+' : ''}${r.gcHeapUsedMb.added.toFixed(1)} MB, ${r.addedKbPerWaitingRun.liveHeap.toFixed(2)} KB per waiting run); RSS after that GC ${mb(before.gcRss)} → ${mb(after.gcRss)}`,
      `  parked ${RUNS - WARM} runs in ${r.parkSeconds.toFixed(1)} s (${r.parkedPerSecond.toFixed(0)}/s, worker CPU ${r.workerCpuMsPerPark.toFixed(2)} ms per run); while waiting: ${heldWhileWaiting.leases} leases, ${heldWhileWaiting.activeJobs} active jobs`,
      `  resume ${RESUME}: decideMany ${decideSeconds.toFixed(2)} s, all succeeded after ${resumeSeconds.toFixed(2)} s (${r.resumedPerSecond.toFixed(0)}/s)`,
      `  checks: record ran ${checks.executed} times for ${checks.executedOnce} of ${RESUME} approved runs; ${checks.stillWaiting} runs still waiting (expected ${checks.expectedWaiting}); load average ${r.loadAverage.toFixed(1)}`,
    ].join('\n'),
  );
}
const figures = waitingFigures(repetitions);
for (const f of figures)
  for (const g of f.goals)
    console.log(`goal: ${f.label}: ${f.looplane.median} ${f.unit} (${f.looplane.min}–${f.looplane.max}), ${g.text}: ${g.met ? 'met' : 'MISSED'}`);
// The raw repetitions beside the figures, without the samples the lines above already summarised.
const raw = repetitions.map(({ cold: _cold, before: _before, after: _after, peakWhileParking: _peak, afterResume: _afterResume, ok: _ok, ...r }) => r);
console.log(JSON.stringify({ bench: 'waiting-is-free', figures, runs: RUNS, resumed: RESUME, repeat: REPEAT, repetitions: raw }));
process.exit(repetitions.every((r) => r.ok) ? 0 : 1);
