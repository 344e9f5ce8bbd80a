// Schedule tick lateness (bench/README.md, section 10): 1,000 schedules with the cron `* * * * *`
// (every minute, UTC) in a fresh database, created through `schedules.create`, and one real
// worker process (the production bundle, plain node) whose scheduler fires them; the same worker
// also runs every tick's 1,000 runs (a faux agent that answers at once): the worker has no
// setting that runs the scheduler without taking sessions. For each tick, lateness = the tick's
// record (made after its run was created and enqueued) − the tick's time, per schedule; each
// tick's p50, p99 and max, and the runs it made (exactly one per schedule). The first complete
// tick after the schedules exist is a warm-up; then 5 measured ticks (5 minutes).
// `--quick`: 50 schedules every 5 s (`*/5 * * * * *`), 2 measured ticks.
// Writes `bench/results/<date>-<commit>-schedule-lateness.json` (a temp file with --quick) and
// prints one JSON line with the figures in the results format. Exits 1 unless every tick made
// exactly one run per schedule.
// Run: `npm run bench:schedules -w @looplane/bench [-- --quick] [-- --schedules N] [-- --ticks N]`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callerAs, createTeamFixture, createTestLive } from '@looplane/api/testing';
import { createTestAgent } from '@looplane/db/testing';
import { createTestDatabase } from '@looplane/testkit';
import { buildWorker } from '../../apps/worker/build.mjs';
import { spawnWorker } from '../../apps/worker/src/testing/fault-harness';
import { testRedisUrl } from '../../apps/worker/src/testing/test-runtime';
import { option, stat } from '../compare/stats';
import { cpuSeconds } from '../runtime/density';
import { LATENESS_GOAL_MS, latenessFigures } from './figures';
import { recordResults } from './results-out';
import { measureTick, runsFinished, type TickMeasure } from './schedule-ticks';

const quick = process.argv.includes('--quick');
const SCHEDULES = Number(option('schedules') ?? (quick ? 50 : 1000));
const TICKS = Number(option('ticks') ?? (quick ? 2 : 5));
const WARMUP_TICKS = 1;
/** The cron and its period (the ticks are the period's multiples since the epoch, in UTC). */
const CRON = quick ? '*/5 * * * * *' : '* * * * *';
const PERIOD_MS = quick ? 5000 : 60_000;
/** schedules.create calls in flight at once while setting up. */
const CREATE_PARALLEL = 8;
/**
 * The worker's settings: production defaults (pool 20, so the scheduler fires 5 schedules at once;
 * concurrency 50; scheduler poll 1 s) except the team's run-start limits, which are lifted (0): by
 * default a team may start 120 runs a minute and have 1,000 queued, and 1,000 schedules a minute
 * are over the first (each tick past it would be recorded as failed, not late).
 */
const WORKER_ENV = {
  WORKER_CONCURRENCY: option('concurrency') ?? '50',
  DATABASE_POOL_SIZE: option('pool') ?? '20',
  LOOPLANE_SCHEDULER_POLL_MS: '1000',
  LOOPLANE_RUNS_PER_MINUTE: '0',
  LOOPLANE_MAX_QUEUED_RUNS: '0',
};

const results = await recordResults('schedule-lateness', quick);
const bundle = (await buildWorker())['worker-with-test-tools'];
const t = await createTestDatabase();
// The queue the worker consumes and the scheduler enqueues on (its prefix is private to this run).
const live = await createTestLive();
const prefix = live.queue.opts.prefix ?? 'bull';
const fx = await createTeamFixture(t.db);
const agent = await createTestAgent(t.db, fx.teamId, { script: [{ finish: 'tick done' }] });
const workDir = mkdtempSync(join(tmpdir(), 'looplane-bench-schedules-'));
const worker = spawnWorker(
  { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, LOOPLANE_HOME: workDir, ...WORKER_ENV },
  join(workDir, 'worker.log'),
  [],
  bundle,
);
// If the benchmark dies, its worker must not outlive it.
process.on('exit', () => worker.child.kill('SIGKILL'));
await Promise.race([worker.ready, worker.exited.then((code) => Promise.reject(new Error(`the worker exited with ${code}:\n${worker.output().slice(-2000)}`)))]);

// The schedules, through the API's own procedure (as an operator), a few calls at once.
const operator = await callerAs({ db: t.db, dispatch: live.dispatch }, { userId: fx.members.operator.id });
const createStarted = Date.now();
let made = 0;
await Promise.all(
  Array.from({ length: CREATE_PARALLEL }, async () => {
    while (made < SCHEDULES) {
      const n = ++made;
      await operator.schedules.create({
        teamId: fx.teamId,
        name: `bench-schedule-${n}`,
        agentId: agent.agentId,
        cron: CRON,
        timezone: 'UTC',
        goal: `Check the purchasing inbox (tick {{scheduledAt}}, schedule ${n})`,
        overlap: 'skip',
      });
    }
  }),
);
const createdAt = Date.now();
process.stderr.write(`${SCHEDULES} schedules created in ${((createdAt - createStarted) / 1000).toFixed(1)} s; worker ${worker.pid} ready\n`);

// The first tick every schedule has: the first period boundary after the last was created.
const firstTick = Math.floor(createdAt / PERIOD_MS) * PERIOD_MS + PERIOD_MS;
const tickAt = (k: number) => new Date(firstTick + k * PERIOD_MS);
const deadlineMs = Math.max(3 * PERIOD_MS, 180_000);
const measured: TickMeasure[] = [];
const warmups: TickMeasure[] = [];
let cpuBefore = 0;
for (let k = 0; k < WARMUP_TICKS + TICKS; k++) {
  if (k === WARMUP_TICKS) cpuBefore = cpuSeconds(worker.pid);
  const tick = await measureTick(t.db, tickAt(k), SCHEDULES, deadlineMs);
  (k < WARMUP_TICKS ? warmups : measured).push(tick);
  process.stderr.write(
    `${k < WARMUP_TICKS ? 'warm-up' : `tick ${k - WARMUP_TICKS + 1}/${TICKS}`} ${tick.at}: lateness p50 ${tick.lateness.p50} ms, p99 ${tick.lateness.p99} ms, max ${tick.lateness.max} ms; ${tick.runs} runs, ${tick.exactlyOnce ? 'exactly once' : 'NOT EXACTLY ONCE'}\n`,
  );
}
// The worker's CPU over the measured ticks (firing them and running their runs), up to the last tick's end.
await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstTick + (WARMUP_TICKS + TICKS) * PERIOD_MS - Date.now())));
const workerCpuS = cpuSeconds(worker.pid) - cpuBefore;
const finished = await Promise.all(measured.map((tick) => runsFinished(t.db, new Date(tick.at))));
worker.child.kill('SIGTERM');
await worker.exited;
await live.close();
await t.drop();

const figures = latenessFigures({
  schedules: SCHEDULES,
  cron: CRON,
  p50Ms: measured.map((m) => m.lateness.p50),
  p99Ms: measured.map((m) => m.lateness.p99),
  maxMs: measured.map((m) => m.lateness.max),
  runsPerTick: measured.map((m) => m.runs),
});
const p99 = figures[0]!.looplane;
const exactlyOnce = [...warmups, ...measured].every((m) => m.exactlyOnce);
const summary = {
  latenessP50Ms: stat(
    measured.map((m) => m.lateness.p50),
    0,
  ),
  latenessP99Ms: p99,
  latenessMaxMs: stat(
    measured.map((m) => m.lateness.max),
    0,
  ),
  runCreatedP99Ms: stat(
    measured.map((m) => m.runCreatedLateness.p99),
    0,
  ),
  runsPerTick: stat(
    measured.map((m) => m.runs),
    0,
  ),
  /** Seconds after each tick's time when the worker had finished running all of its runs. */
  allRunsFinishedS: finished.every((f) => f.lastFinishedS !== null) ? stat(finished.map((f) => f.lastFinishedS!)) : null,
  /** The worker's CPU over the measured ticks, per scheduled run (firing it and running it). */
  workerCpuMsPerRun: Number(((workerCpuS * 1000) / (SCHEDULES * TICKS)).toFixed(2)),
  exactlyOnce,
};
const met = p99.median <= LATENESS_GOAL_MS;
const file = await results.write({
  config: {
    schedules: SCHEDULES,
    cron: CRON,
    periodMs: PERIOD_MS,
    ticks: TICKS,
    warmupTicks: WARMUP_TICKS,
    worker: WORKER_ENV,
    createParallel: CREATE_PARALLEL,
  },
  goals: [
    { goal: `tick lateness p99 ≤ ${LATENESS_GOAL_MS} ms (median of the ticks' p99)`, value: p99.median, met },
    { goal: `exactly one run per schedule every tick (${SCHEDULES})`, value: summary.runsPerTick.median, met: exactlyOnce },
  ],
  figures,
  summary,
  setup: { createSeconds: (createdAt - createStarted) / 1000, firstTick: tickAt(0).toISOString() },
  warmups,
  ticks: measured.map((m, i) => ({ ...m, runsFinished: finished[i] })),
});
const range = (s: { median: number; min: number; max: number }, unit = ' ms') => `${s.median}${unit} (${s.min}–${s.max})`;
console.log(
  [
    `Schedule lateness${quick ? ' (--quick)' : ''}: ${SCHEDULES} schedules \`${CRON}\`, one worker (${Object.entries(WORKER_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}), ${TICKS} measured ticks after ${WARMUP_TICKS} warm-up`,
    ...measured.map(
      (m, i) =>
        `  tick ${m.at}: p50 ${m.lateness.p50} ms, p99 ${m.lateness.p99} ms, max ${m.lateness.max} ms; ${m.runs} runs of ${m.runSchedules} schedules; all run by ${finished[i]!.lastFinishedS ?? '?'} s`,
    ),
    `  lateness p99 ${range(p99)} — goal ≤ ${LATENESS_GOAL_MS} ms: ${met ? 'met' : 'MISSED'}; p50 ${range(summary.latenessP50Ms)}; max ${range(summary.latenessMaxMs)}`,
    `  runs per tick ${range(summary.runsPerTick, '')} — ${exactlyOnce ? 'exactly once' : 'NOT EXACTLY ONCE'}; worker CPU ${summary.workerCpuMsPerRun} ms per scheduled run`,
    `Raw results: ${file}`,
  ].join('\n'),
);
console.log(JSON.stringify({ bench: 'schedule-lateness', quick, results: file, figures, summary }));
process.exit(exactlyOnce ? 0 : 1);
