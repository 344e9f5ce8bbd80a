// Durable step overhead, side by side: one agent, N turns (200), each turn one tool call, model and
// tool answering in 0 ms, every step durably recorded in the same Postgres (fsync on). Looplane
// (the real worker runtime, bench/runtime/step-overhead.ts: idempotent tool, non-idempotent tool,
// and strict, where every step is durable before the next begins) against LangGraph's ReAct graph
// with PostgresSaver (durability "sync" and the default "async"), MemorySaver and no checkpointer;
// the floor is one plain ~1 KB JSON INSERT per step. The whole comparison is repeated (5 times;
// `--repetitions N`), each time on fresh databases, and every figure is the median over the
// repetitions with min–max (compare/step-figures.ts).
// Run: `npx tsx bench/compare/step-overhead.ts [--quick] [--turns N] [--repetitions N]`. See bench/README.md.
import { pathToFileURL } from 'node:url';
import { measureLangGraph, type LangGraphStepRun } from '../langgraph/step-overhead';
import { runStepOverhead, type StepOverhead, type StepRun } from '../runtime/step-overhead';
import { stepFigures } from './step-figures';
import { option, quantile, round, stat, summarize, type TurnSummary } from './stats';

export type LangGraphVariant = 'postgres-sync' | 'postgres-async' | 'memory' | 'none';

export interface StepRepetition {
  looplane: Array<Omit<StepRun, 'perTurn'> & { summary: TurnSummary }>;
  langgraph: Array<Omit<LangGraphStepRun, 'perTurn'> & { key: LangGraphVariant; summary: TurnSummary }>;
  floor: { p50: number; p95: number };
}

export interface StepComparison {
  turns: number;
  settings: StepOverhead['settings'];
  repetitions: StepRepetition[];
}

const PEERS = [
  ['postgres-sync', 'postgres', 'sync'],
  ['postgres-async', 'postgres', 'async'],
  ['memory', 'memory', 'async'],
  ['none', 'none', 'async'],
] as const;

/** One repetition: both systems, one after the other, against the same Postgres. */
async function repetition(turns: number, warmupTurns: number): Promise<{ settings: StepOverhead['settings']; rep: StepRepetition }> {
  const ours = await runStepOverhead(turns, warmupTurns);
  const langgraph: StepRepetition['langgraph'] = [];
  for (const [key, kind, durability] of PEERS) {
    const { perTurn, ...run } = await measureLangGraph(kind, turns, { durability, warmupTurns });
    langgraph.push({ key, ...run, summary: summarize(perTurn) });
  }
  const looplane = ours.runs.map(({ perTurn, ...r }) => ({ ...r, summary: summarize(perTurn) }));
  return { settings: ours.settings, rep: { looplane, langgraph, floor: { p50: quantile(ours.floor, 0.5), p95: quantile(ours.floor, 0.95) } } };
}

/** Runs the comparison `repetitions` times, each on fresh databases. */
export async function compareStepOverhead(turns: number, warmupTurns = 20, repetitions = 1): Promise<StepComparison> {
  const reps: StepRepetition[] = [];
  let settings: StepOverhead['settings'] = { fsync: '?', sync: '?' };
  for (let i = 0; i < repetitions; i++) {
    const r = await repetition(turns, warmupTurns);
    settings = r.settings;
    reps.push(r.rep);
    console.error(`step-overhead: repetition ${i + 1} of ${repetitions} done`);
  }
  return { turns, settings, repetitions: reps };
}

const cell = (values: number[], digits = 2) => {
  const s = stat(values);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`.padEnd(22);
};

function print(c: StepComparison) {
  const n = c.repetitions.length;
  console.log(
    `Durable step overhead, side by side (Postgres fsync=${c.settings.fsync}, synchronous_commit=${c.settings.sync}; ${c.turns} turns, 1 tool call each, model and tool 0 ms; median (min–max) over ${n} repetitions)\n`,
  );
  console.log(`${'system'.padEnd(80)} ${'p50 ms'.padEnd(22)} ${'p95 ms'.padEnd(22)} ${'last ÷ first tenth'.padEnd(22)} stored (rows, MB)`);
  const first = c.repetitions[0]!;
  for (const v of first.looplane) {
    const runs = c.repetitions.map((r) => r.looplane.find((x) => x.key === v.key)!);
    console.log(
      `${`Looplane, ${v.label}`.padEnd(80)} ${cell(runs.map((r) => r.summary.p50))} ${cell(runs.map((r) => r.summary.p95))} ${cell(runs.map((r) => r.summary.lastTenth / r.summary.firstTenth))} ${v.storage.rows}, ${cell(runs.map((r) => r.storage.bytes / 1e6))}`,
    );
  }
  for (const v of first.langgraph) {
    const runs = c.repetitions.map((r) => r.langgraph.find((x) => x.key === v.key)!);
    const stored = v.bytes === null ? '-' : `${Object.values(v.storage ?? {}).reduce((a, t) => a + t.rows, 0)}, ${cell(runs.map((r) => (r.bytes ?? 0) / 1e6))}`;
    console.log(
      `${v.label.padEnd(80)} ${cell(runs.map((r) => r.summary.p50))} ${cell(runs.map((r) => r.summary.p95))} ${cell(runs.map((r) => r.summary.lastTenth / r.summary.firstTenth))} ${stored}`,
    );
  }
  console.log(
    `${'floor: plain 1 KB JSON INSERT per step (pg)'.padEnd(80)} ${cell(
      c.repetitions.map((r) => r.floor.p50),
      3,
    )} ${cell(
      c.repetitions.map((r) => r.floor.p95),
      3,
    )}`,
  );
  const figures = stepFigures(c);
  console.log('');
  for (const f of figures) {
    const ratio = f.ratio ? `, Looplane ÷ peer ${f.ratio.value.median}` : '';
    console.log(
      `${f.label}: ${f.looplane.median} ${f.unit}${f.peer ? ` vs ${f.peer.label} ${f.peer.value.median}` : ''}${ratio}${f.goals.map((g) => `; goal ${g.text}: ${g.met ? 'met' : 'MISSED'}`).join('')}`,
    );
  }
  const raw = c.repetitions.map((r) => ({
    looplane: r.looplane.map((x) => ({
      key: x.key,
      events: x.events,
      notices: x.notices,
      toolCalls: x.toolCalls,
      storage: x.storage,
      summary: rounded(x.summary),
    })),
    langgraph: r.langgraph.map((x) => ({ key: x.key, checkpoints: x.checkpoints, messages: x.messages, storage: x.storage, summary: rounded(x.summary) })),
    floor: { p50: round(r.floor.p50, 3), p95: round(r.floor.p95, 3) },
  }));
  console.log(JSON.stringify({ bench: 'step-overhead', turns: c.turns, settings: c.settings, figures, repetitions: raw }));
}

const rounded = (s: TurnSummary) => ({
  p50: round(s.p50, 3),
  p95: round(s.p95, 3),
  mean: round(s.mean, 3),
  firstTenth: round(s.firstTenth, 3),
  lastTenth: round(s.lastTenth, 3),
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const turns = Number(option('turns') ?? (quick ? 20 : 200));
  const repetitions = Number(option('repetitions') ?? (quick ? 2 : 5));
  print(await compareStepOverhead(turns, quick ? 5 : 20, repetitions));
}
