// Durable step overhead: one agent, N turns (200; 50 with --quick), each turn one model call and
// one tool call, model and tool answering in 0 ms, every event durably written (fsync on) and
// published. Measures the control plane's own cost per turn, through the real worker runtime
// (BullMQ job, lease, write unit, ledger, live bus) in-process against real Postgres and Redis.
// Three variants (bench/README.md, section 1, says what each awaits per turn): the tool idempotent,
// not idempotent, and strict (not idempotent and a limited budget, so no model call either starts
// before everything before it is durable).
// Run: `npx tsx bench/runtime/step-overhead.ts [--quick]`. See bench/runtime/README.md.
import { pathToFileURL } from 'node:url';
import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ModelPort, ScriptTurn } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { createTestDatabase } from '@looplane/testkit';
import { createTestClient, startTestWorker, uniquePrefix, waitFor } from '../../apps/worker/src/testing/test-runtime';
import { testToolSpecs } from '../../apps/worker/src/testing/test-tools';
import { runStorage, storageBaseline, type RunStorage } from './run-storage';

const quick = process.argv.includes('--quick');
const TURNS = quick ? 50 : 200;

/**
 * The variants, in the order they run. `idempotent`: the tool call may start while the turn's events
 * commit. `nonIdempotent`: every tool call waits for the commit of everything before it, but on an
 * unlimited budget the model call may still start while the tool's result commits (up to
 * MAX_AHEAD, packages/db/src/runs/write-unit.ts). `strict`: not idempotent and a limited budget
 * (its spend is pre-authorised), so every step is durable before the next begins.
 */
export const STEP_VARIANTS = [
  { key: 'idempotent', label: 'idempotent tool, unlimited budget', idempotentTool: true, limitedBudget: false },
  { key: 'nonIdempotent', label: 'non-idempotent tool, unlimited budget', idempotentTool: false, limitedBudget: false },
  { key: 'strict', label: 'strict: non-idempotent tool, limited budget (nothing runs ahead)', idempotentTool: false, limitedBudget: true },
] as const;

export type StepVariant = (typeof STEP_VARIANTS)[number]['key'];

/** One measured run: ms per turn, events written and live notices received, what it stored. */
export interface StepRun {
  key: StepVariant;
  label: string;
  perTurn: number[];
  events: number;
  /** Live notices received: one is published per commit. */
  notices: number;
  /** Every row the run left, per table (events, audit rows, budget entries, ledgers, ...). */
  storage: RunStorage;
  /** Tool calls durably recorded as finished (`tool.finished` events). */
  toolCalls: number;
}

export interface StepOverhead {
  settings: { fsync: string; sync: string };
  runs: StepRun[];
  /** ms of each floor INSERT, sorted. */
  floor: number[];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const fmt = (ms: number) => ms.toFixed(2).padStart(6);

/** Start times (ms, high resolution) of every model call, per run. */
const callStarts = new Map<string, number[]>();

function timedModel(inner: ModelPort, key: string): ModelPort {
  return {
    complete(request, options) {
      const starts = callStarts.get(key) ?? [];
      starts.push(performance.now());
      callStarts.set(key, starts);
      return inner.complete(request, options);
    },
  };
}

/**
 * Measures `turns` turns of each variant (after a warm-up run of `warmupTurns` of each), then the floor (`turns * 5` plain INSERTs). Exported for the side-by-side comparison (bench/compare).
 */
export async function runStepOverhead(turnCount: number = TURNS, warmupTurns = 20): Promise<StepOverhead> {
  const TURNS = turnCount;
  const t = await createTestDatabase();
  const pool = createPgPool(t.url, { max: 2 });
  const settings = await pool.query({ text: `SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync` });
  const prefix = uniquePrefix('bench-step');
  const worker = await startTestWorker({
    databaseUrl: t.url,
    prefix,
    concurrency: 4,
    createModel: (endpoint, key) => timedModel(createModelForEndpoint(endpoint, key), endpoint.name),
  });
  const client = await createTestClient(prefix);
  /** One run of `turns` turns (each a tool call, then a final answer); returns per-turn ms. */
  async function measure(turns: number, variant: { idempotentTool: boolean; limitedBudget: boolean }): Promise<Omit<StepRun, 'key' | 'label'>> {
    // A team per run, so its audit rows are the run's alone. Every turn echoes, changing no file with
    // no new tool: by design a loop the noProgress breaker would pause after 40 turns. The other
    // breakers stay on (and are checked on every call).
    const teamId = await createTestTeam(t.db, {
      policy: { version: 1, name: 'bench: allow all', default: 'allow', breakers: { noProgress: { enabled: false } } },
    });
    // `echo` answers at once; declared idempotent or not, which decides whether the call waits for its commit.
    const tools = testToolSpecs.map((t) => (t.name === 'echo' ? { ...t, idempotent: variant.idempotentTool } : t));
    const config = { tools, toolLoading: 'eager' as const, limits: { maxTurns: 100_000 } };
    const script: ScriptTurn[] = Array.from({ length: turns }, (_, i) => ({ calls: [{ tool: 'echo', args: { text: `turn ${i}` } }] }));
    script.push({ finish: 'done' });
    const agent = await createTestAgent(t.db, teamId, { script });
    const endpoint = await t.db.modelEndpoint.findUniqueOrThrow({ where: { id: agent.endpointId } });
    const baseline = await storageBaseline(pool, teamId);
    // A limit far above what the run spends: never reached, but every model call's spend is then
    // reserved against it before the call starts, so the call waits for the commit before it.
    const run = await createTestRun(t.db, agent, { config, ...(variant.limitedBudget ? { budget: { tokens: 1e12 } } : {}) });
    let notices = 0;
    const off = await client.bus.onRunEvent(run.runId, () => notices++);
    await client.enqueue({ ...run, reason: 'start' });
    await waitFor(async () => ((await t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).status === 'succeeded' ? true : undefined), 120_000, 'the run');
    const events = await t.db.event.count({ where: { runId: run.runId } });
    const storage = await runStorage(pool, run.runId, teamId, baseline);
    const toolCalls = await t.db.event.count({ where: { runId: run.runId, type: 'tool.finished' } });
    await waitFor(() => notices > 0 || undefined, 2000, 'live notices');
    await off();
    const starts = callStarts.get(endpoint.name) ?? [];
    // Turn k = from the start of model call k to the start of call k+1: settle, policy, tool,
    // reserve and every append in between, with their commits.
    const perTurn = starts.slice(1).map((at, i) => at - starts[i]!);
    return { perTurn, events, notices, storage, toolCalls };
  }

  // Warm-up (JIT, prepared statements, connections): each variant's code paths once.
  if (warmupTurns > 0) for (const v of STEP_VARIANTS) await measure(warmupTurns, v);
  const runs: StepRun[] = [];
  for (const v of STEP_VARIANTS) runs.push({ key: v.key, label: v.label, ...(await measure(TURNS, v)) });

  // The floor: a plain 1 KB JSON INSERT per step, autocommitted (one fsync each).
  await pool.query({ text: 'CREATE TABLE bench_floor (id bigserial PRIMARY KEY, payload jsonb NOT NULL)' });
  const payload = JSON.stringify({ text: 'x'.repeat(1000) });
  const floor: number[] = [];
  for (let i = 0; i < TURNS * 5; i++) {
    const start = performance.now();
    await pool.query({ name: 'floor', text: 'INSERT INTO bench_floor (payload) VALUES ($1)', values: [payload] });
    floor.push(performance.now() - start);
  }
  floor.sort((a, b) => a - b);

  await worker.stop();
  await client.close();
  await pool.end();
  await t.drop();
  return { settings: settings.rows[0] as { fsync: string; sync: string }, runs, floor };
}

async function main() {
  const { settings, runs, floor } = await runStepOverhead();
  console.log(
    `Durable step overhead (Postgres fsync=${settings.fsync}, synchronous_commit=${settings.sync}; ${TURNS} turns, each 1 model call + 1 tool call, 0 ms each)\n`,
  );
  console.log(`${'variant'.padEnd(66)}  events/turn  commits/turn  mean ms   p50 ms   p95 ms   first tenth   last tenth   turn 1   turn N`);
  for (const r of runs) {
    const sorted = [...r.perTurn].sort((a, b) => a - b);
    const tenth = Math.max(1, Math.floor(r.perTurn.length / 10));
    console.log(
      `${r.label.padEnd(66)}  ${(r.events / TURNS).toFixed(1).padStart(11)}  ${(r.notices / TURNS).toFixed(2).padStart(12)}   ${fmt(r.perTurn.reduce((a, b) => a + b, 0) / r.perTurn.length)}   ${fmt(quantile(sorted, 0.5))}   ${fmt(quantile(sorted, 0.95))}   ${fmt(median(r.perTurn.slice(0, tenth)))}       ${fmt(median(r.perTurn.slice(-tenth)))}     ${fmt(r.perTurn[0]!)}   ${fmt(r.perTurn.at(-1)!)}`,
    );
  }
  if (process.env.BENCH_SERIES) for (const r of runs) console.log(r.label, r.perTurn.map((x) => x.toFixed(1)).join(' '));
  console.log(`\nfloor: a plain 1 KB JSON INSERT, autocommitted (one fsync): p50 ${fmt(quantile(floor, 0.5))} ms, p95 ${fmt(quantile(floor, 0.95))} ms`);
  for (const r of runs)
    console.log(
      `stored, ${r.key}: ${r.storage.rows} rows, ${(r.storage.bytes / 1e6).toFixed(2)} MB (${Object.entries(r.storage.tables)
        .map(([t, s]) => `${t} ${s.rows}`)
        .join(', ')})`,
    );
  console.log(
    'commits/turn = live notices received per turn (one is published per commit). "first/last tenth": median ms per turn over the first and last tenth of the turns.',
  );
}

// Run as a script; imported (bench/compare), it only exports the measurement.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
