// Soak: one session of N turns (20,000; 600 with --quick) through the real worker process, the
// faux model and the `echo` tool answering in 0 ms, compaction on, an unlimited budget. Per bucket
// of turns (1,000; 100 with --quick): ms per turn, the worker's RSS and live heap, the context sent
// to the model, compactions and the bytes stored. Exits 1 when a goal is missed: the last bucket
// within 1.2x of the first, memory flat, the context bounded by compaction (see verdicts.ts). The
// last line is one JSON object with those as figures in the results format (figures.ts; one soak is
// one repetition, n = 1) beside the raw series.
// Run: `npx tsx bench/soak/soak.ts [--quick] [--turns N] [--bucket B] [--context-window T] [--out FILE]`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { parseRunConfig, type ScriptTurn } from '@looplane/engine';
import { createTestDatabase } from '@looplane/testkit';
import { buildWorker } from '../../apps/worker/build.mjs';
import { spawnWorker } from '../../apps/worker/src/testing/fault-harness';
import { createTestClient, testRedisUrl, uniquePrefix } from '../../apps/worker/src/testing/test-runtime';
import { testToolSpecs } from '../../apps/worker/src/testing/test-tools';
import { gitCommit, machine } from '../workspaces/run-info';
import { soakFigures } from './figures';
import { bucketFigures, tableSizes } from './series';
import { memory } from './proc';
import { judge, MAX_GROWTH } from './verdicts';
import { sampleWorker, type MemorySample } from './worker-memory';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const TURNS = Number(option('turns') ?? (quick ? 600 : 20_000));
const BUCKET = Number(option('bucket') ?? (quick ? 100 : 1000));
// The window sets how often compaction runs: 32,000 (the test endpoint's) compacts every ~200 turns,
// 8,000 every ~40, so either size sees several compactions per bucket.
const CONTEXT_WINDOW = Number(option('context-window') ?? (quick ? 8000 : 32_000));
/** Characters of each tool call's text (echoed back as its result): a small but not empty turn. */
const TEXT_CHARS = 200;
const OUT = option('out');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const t = await createTestDatabase();
const pool = createPgPool(t.url, { max: 2 });
const prefix = uniquePrefix('soak');
// Allow everything. Two breakers are set aside because the 0 ms model trips them by design:
// noProgress (every turn echoes, no new tool, no workspace change) and spendRate, left on but with
// limits out of reach (a model answering in 0 ms sends millions of prompt tokens a minute).
const unreachable = { costMicros: 1e15, tokens: 1e15 };
const teamId = await createTestTeam(t.db, {
  policy: {
    version: 1,
    name: 'bench: soak',
    default: 'allow',
    breakers: { noProgress: { enabled: false }, spendRate: { perSession: unreachable, perGraphRun: unreachable } },
  },
});
const script: ScriptTurn[] = Array.from({ length: TURNS }, (_, i) => ({ calls: [{ tool: 'echo', args: { text: `turn ${i} `.padEnd(TEXT_CHARS, 'x') } }] }));
script.push({ finish: 'done' });
const created = await createTestAgent(t.db, teamId, { script });
await t.db.modelEndpoint.update({ where: { id: created.endpointId }, data: { contextWindow: CONTEXT_WINDOW } });
const agent = { ...created, limits: { ...created.limits, contextWindow: CONTEXT_WINDOW } };
// `echo` as the tests declare it (idempotent, no sandbox): a sandboxed tool would dominate the turn.
const config = { tools: testToolSpecs, toolLoading: 'eager' as const, limits: { maxTurns: TURNS + 10 } };
const run = await createTestRun(t.db, agent, { config });
const compaction = parseRunConfig({ ...config, model: agent.limits, compaction: { summarizer: 'deterministic' } }).compaction;
const ledgers = await t.db.budgetLedger.findMany({ where: { runId: run.runId }, select: { id: true } });

const workDir = mkdtempSync(join(tmpdir(), 'looplane-soak-'));
// The worker as production runs it: the bundle build.mjs makes, under plain node, with the GC probe.
const bundles = await buildWorker();
const worker = spawnWorker(
  { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: '4', DATABASE_POOL_SIZE: '10' },
  join(workDir, 'worker.log'),
  [
    '--expose-gc',
    '--import',
    fileURLToPath(new URL('../waiting/gc-probe.mjs', import.meta.url)),
    // e.g. BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the worker (profile-top.ts reads it)
    ...(process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  ],
  bundles['worker-with-test-tools'],
);
// If the benchmark dies, its worker must not outlive it.
process.on('exit', () => worker.child.kill('SIGTERM'));
await Promise.race([worker.ready, worker.exited.then((code) => Promise.reject(new Error(`the worker exited with ${code}:\n${worker.output().slice(-2000)}`)))]);
const client = await createTestClient(prefix);
const cold = await sampleWorker(worker);
const readsBefore = await rowsRead();

console.log(
  `Soak: one session of ${TURNS} turns (model and echo tool at 0 ms), context window ${CONTEXT_WINDOW} tokens, compaction at ${compaction.threshold}, buckets of ${BUCKET} turns\n`,
);
const started = performance.now();
await client.enqueue({ ...run, reason: 'start' });

/** The latest turn the session asked the model for; reads only the events since the last call. */
let seenSeq = 0;
let seenTurn = -1;
async function latestTurn(): Promise<number> {
  const found = await pool.query({
    text: `SELECT seq, (payload->>'turn')::int AS turn FROM "Event" WHERE "sessionId" = $1 AND seq > $2 AND type = 'model.requested' ORDER BY seq DESC LIMIT 1`,
    values: [run.sessionId, seenSeq],
  });
  const row = found.rows[0] as { seq: number; turn: number } | undefined;
  if (row) [seenSeq, seenTurn] = [row.seq, row.turn];
  return seenTurn;
}
/** Rows Postgres has read from each table so far (sequential and index fetches), from its statistics. */
async function rowsRead(): Promise<Record<string, number>> {
  const found = await pool.query({
    text: `SELECT relname AS name, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::bigint AS n FROM pg_stat_user_tables`,
  });
  return Object.fromEntries((found.rows as { name: string; n: string }[]).map((r) => [r.name, Number(r.n)]));
}
const status = async () => (await t.db.run.findUniqueOrThrow({ where: { id: run.runId }, select: { status: true } })).status;

// The worker's memory at the end of each bucket: sampled as soon as the poll sees the bucket's last turn asked for.
const samples: MemorySample[] = [];
const reads: Record<string, number>[] = [];
const sampledAtTurn: number[] = [];
const deadline = started + 60_000 + TURNS * 100;
for (let next = Math.min(BUCKET, TURNS); samples.length < Math.ceil(TURNS / BUCKET); ) {
  const turn = await latestTurn();
  if (turn >= next) {
    samples.push(await sampleWorker(worker));
    sampledAtTurn.push(turn);
    reads.push(await rowsRead());
    const b = samples.length;
    console.log(
      `  turn ${String(turn).padStart(6)}: ${((performance.now() - started) / 1000).toFixed(1)} s, worker RSS ${samples.at(-1)!.rss.toFixed(0)} MB, live heap ${samples.at(-1)!.gcHeapUsed.toFixed(1)} MB`,
    );
    next = Math.min(TURNS, (b + 1) * BUCKET);
    continue;
  }
  // A run that stopped (failed, cancelled, or waiting on a breaker or a budget) will not reach the turn.
  if (['failed', 'cancelled', 'waiting'].includes(await status()) || performance.now() > deadline)
    throw new Error(`the run is ${await status()} at turn ${turn} after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await sleep(100);
}
while ((await status()) !== 'succeeded') {
  if (performance.now() > deadline) throw new Error(`the run is ${await status()} after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await sleep(100);
}
const wallSeconds = (performance.now() - started) / 1000;
const workerCpuSeconds = samples.at(-1)!.cpuSeconds - cold.cpuSeconds;

const { buckets, oneTurnTokens } = await bucketFigures(
  pool,
  run.sessionId,
  ledgers.map((l) => l.id),
  TURNS,
  BUCKET,
);
const toolCalls = await t.db.event.count({ where: { runId: run.runId, type: 'tool.finished' } });
const rows = {
  events: await t.db.event.count({ where: { runId: run.runId } }),
  audit: await t.db.auditLog.count(),
  budgetEntries: await t.db.budgetEntry.count({ where: { ledgerId: { in: ledgers.map((l) => l.id) } } }),
};
const tables = await tableSizes(pool);
const settings = (
  await pool.query({
    text: `SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS "synchronousCommit", current_setting('shared_buffers') AS "sharedBuffers"`,
  })
).rows[0] as Record<string, string>;

const peakRss = memory(worker.pid).peak;
worker.child.kill('SIGTERM');
await worker.exited;
await client.close();
await pool.end();
await t.drop();

const cpuMsPerTurn = samples.map(
  (sample, i) => ((sample.cpuSeconds - (i === 0 ? cold : samples[i - 1]!).cpuSeconds) * 1000) / (sampledAtTurn[i]! - (i === 0 ? 0 : sampledAtTurn[i - 1]!)),
);
// At a quick size a bucket lasts about a second, so on a shared machine its wall time is set by the
// neighbours: the wall-time goal is reported there, and the worker's CPU per turn is what gates.
const verdicts = judge(
  buckets,
  samples,
  cpuMsPerTurn,
  { threshold: compaction.threshold, contextWindow: CONTEXT_WINDOW, oneTurnTokens },
  { gateWallTime: !quick },
);
const series = buckets.map((b, i) => ({
  ...b,
  workerCpuMsPerTurn: cpuMsPerTurn[i]!,
  memory: { ...samples[i]!, atTurn: sampledAtTurn[i]! },
  /** Rows Postgres read per turn, by table (its statistics, flushed within about a second: approximate). */
  rowsReadPerTurn: Object.fromEntries(
    Object.keys(reads[i]!)
      .map(
        (name) =>
          [
            name,
            (reads[i]![name]! - ((i === 0 ? readsBefore : reads[i - 1]!)[name] ?? 0)) / (sampledAtTurn[i]! - (i === 0 ? 0 : sampledAtTurn[i - 1]!)),
          ] as const,
      )
      .filter(([, n]) => n > 0),
  ),
}));
const bytesStored = buckets.reduce((n, b) => n + b.bytes.total, 0);
const result = {
  bench: 'soak',
  figures: soakFigures({ turns: TURNS, bucket: BUCKET, msPerTurn: (wallSeconds * 1000) / TURNS, bytesStored, verdicts }),
  soak: {
    turns: TURNS,
    bucket: BUCKET,
    contextWindow: CONTEXT_WINDOW,
    compaction,
    wallSeconds,
    msPerTurn: (wallSeconds * 1000) / TURNS,
    workerCpuMsPerTurn: (workerCpuSeconds * 1000) / TURNS,
    toolCalls,
    coldMemory: cold,
    /** The worker's peak RSS over the whole soak (VmHWM), MB. */
    peakRss,
    rows,
    bytesStored,
    tableBytes: tables,
    series,
    verdicts,
  },
  machine: { ...machine(), loadAverage: loadavg(), postgres: settings },
  commit: gitCommit().commit,
  at: new Date().toISOString(),
};

const mb = (x: number) => x.toFixed(0).padStart(5);
console.log(`\n  turns            ms/turn  trimmed    p50    p95  cpu ms/turn  context last/max  compactions   RSS MB  heap MB   KB stored`);
for (const s of series) {
  console.log(
    `  ${`${s.fromTurn}–${s.toTurn}`.padEnd(14)}  ${s.msPerTurn.toFixed(2).padStart(7)}  ${s.msPerTurnTrimmed.toFixed(2).padStart(7)}  ${String(s.p50).padStart(5)}  ${String(s.p95).padStart(5)}  ${s.workerCpuMsPerTurn.toFixed(2).padStart(11)}  ${`${s.contextTokensLast}/${s.contextTokensMax}`.padStart(16)}  ${String(s.compactions).padStart(11)}  ${mb(s.memory.rss)}    ${mb(s.memory.gcHeapUsed)}   ${(s.bytes.total / 1024).toFixed(0).padStart(9)}`,
  );
}
const v = verdicts;
const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
console.log(
  [
    '',
    `  turn cost (trimmed mean of wall time${quick ? ', reported, not gated at this size' : ''}): last bucket ${v.turnCost.lastVsFirst.toFixed(2)}x the first (${v.turnCost.lastVsSecond.toFixed(2)}x the second; plain mean ${v.turnCost.meanLastVsFirst.toFixed(2)}x), goal <= ${MAX_GROWTH}: ${mark(v.turnCost.ok)}`,
    `  worker CPU per turn: later half of the buckets ${v.workerCost.lateVsEarly.toFixed(2)}x the earlier half (first bucket left out), goal <= ${MAX_GROWTH}: ${mark(v.workerCost.ok)}`,
    `  memory: RSS ${v.memory.rssLastVsSecond.toFixed(2)}x and live heap ${v.memory.gcHeapLastVsSecond.toFixed(2)}x the end of the second bucket (slopes ${v.memory.rssSlopeMbPerBucket.toFixed(2)} / ${v.memory.gcHeapSlopeMbPerBucket.toFixed(2)} MB per bucket), goal <= ${MAX_GROWTH}: ${mark(v.memory.ok)}`,
    `  context: at most ${v.context.maxTokens} tokens sent, bound ${v.context.boundTokens} (${compaction.threshold} x ${CONTEXT_WINDOW} + one turn, ${oneTurnTokens}), ${v.context.compactions} compactions: ${mark(v.context.ok)}`,
    `  stored: ${rows.events} events, ${rows.audit} audit rows, ${rows.budgetEntries} budget entries = ${(result.soak.bytesStored / 1024 / 1024).toFixed(1)} MB of rows; tables on disk ${Object.entries(
      tables,
    )
      .map(([k, n]) => `${k} ${(n / 1024 / 1024).toFixed(1)} MB`)
      .join(', ')}`,
    `  ${wallSeconds.toFixed(1)} s in all, ${result.soak.msPerTurn.toFixed(2)} ms per turn, worker CPU ${result.soak.workerCpuMsPerTurn.toFixed(2)} ms per turn; load average ${loadavg()[0]!.toFixed(1)}`,
    '',
    JSON.stringify(result),
  ].join('\n'),
);
if (OUT) writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
const ok = verdicts.ok && toolCalls === TURNS;
console.error(`soak ${ok ? 'within' : 'OUT OF'} its bounds (gated: ${verdicts.gated.join(', ')})`);
if (toolCalls !== TURNS) console.error(`expected ${TURNS} finished tool calls, found ${toolCalls}`);
process.exit(ok ? 0 : 1);
