// Durable step overhead, side by side: one agent, N turns (200), each turn one tool call, model and
// tool answering in 0 ms, every step durably recorded in the same Postgres (fsync on). Looplane
// (engine + event store + live publish, bench/runtime/step-overhead.ts) against LangGraph's ReAct
// graph with PostgresSaver (default durability "async", and "sync"), MemorySaver and no
// checkpointer; the floor is one plain ~1 KB JSON INSERT per step.
// Run: `npx tsx bench/compare/step-overhead.ts [--quick] [--turns N]`. See bench/README.md.
import { pathToFileURL } from 'node:url';
import { measureLangGraph, type LangGraphStepRun } from '../langgraph/step-overhead';
import { runStepOverhead, type StepOverhead } from '../runtime/step-overhead';
import { option, quantile, round, summarize, versus, type TurnSummary } from './stats';

export interface StepComparison {
  turns: number;
  settings: StepOverhead['settings'];
  looplane: Array<{ label: string; events: number; notices: number; toolCalls: number; bytes: number; summary: TurnSummary }>;
  langgraph: Array<LangGraphStepRun & { summary: TurnSummary }>;
  floor: { p50: number; p95: number };
}

/** Runs both systems, one after the other, against the same Postgres. */
export async function compareStepOverhead(turns: number, warmupTurns = 20): Promise<StepComparison> {
  const ours = await runStepOverhead(turns, warmupTurns);
  const langgraph: StepComparison['langgraph'] = [];
  for (const [kind, durability] of [['postgres', 'async'], ['postgres', 'sync'], ['memory', 'async'], ['none', 'async']] as const) {
    const run = await measureLangGraph(kind, turns, { durability, warmupTurns });
    langgraph.push({ ...run, summary: summarize(run.perTurn) });
  }
  return {
    turns,
    settings: ours.settings,
    looplane: ours.runs.map((r) => ({ label: `Looplane, ${r.label}`, events: r.events, notices: r.notices, toolCalls: r.toolCalls, bytes: r.eventBytes, summary: summarize(r.perTurn) })),
    langgraph,
    floor: { p50: quantile(ours.floor, 0.5), p95: quantile(ours.floor, 0.95) },
  };
}

const ms = (x: number) => x.toFixed(2).padStart(7);
const mb = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 1e6).toFixed(2)} MB`);

function print(c: StepComparison) {
  console.log(`Durable step overhead, side by side (Postgres fsync=${c.settings.fsync}, synchronous_commit=${c.settings.sync}; ${c.turns} turns, 1 tool call each, model and tool 0 ms)\n`);
  console.log('system                                          p50 ms   p95 ms  mean ms  1st 10th  last 10th  durable records            stored');
  for (const r of c.looplane) {
    const s = r.summary;
    console.log(`${r.label.padEnd(46)} ${ms(s.p50)}  ${ms(s.p95)}  ${ms(s.mean)}  ${ms(s.firstTenth)}   ${ms(s.lastTenth)}  ${`${r.events} events`.padEnd(25)}  ${mb(r.bytes)}`);
  }
  for (const r of c.langgraph) {
    const s = r.summary;
    const records = r.checkpoints === null ? '-' : `${r.checkpoints} checkpoints`;
    console.log(`${r.label.padEnd(46)} ${ms(s.p50)}  ${ms(s.p95)}  ${ms(s.mean)}  ${ms(s.firstTenth)}   ${ms(s.lastTenth)}  ${records.padEnd(25)}  ${mb(r.bytes)}`);
  }
  console.log(`${'floor: plain 1 KB JSON INSERT per step (pg)'.padEnd(46)} ${ms(c.floor.p50)}  ${ms(c.floor.p95)}`);

  const strict = c.looplane.find((r) => r.label.includes('non-idempotent'))!;
  const pgDefault = c.langgraph.find((r) => r.checkpointer === 'postgres' && r.durability === 'async')!;
  const pgSync = c.langgraph.find((r) => r.checkpointer === 'postgres' && r.durability === 'sync')!;
  const ratio = (r: { summary: TurnSummary }) => strict.summary.p50 / r.summary.p50;
  console.log('\nLooplane (non-idempotent tool: every tool call waits for its commit) ÷ LangGraph, p50 ms per turn:');
  for (const r of c.langgraph) console.log(`  vs ${r.label.padEnd(44)} ${ratio(r).toFixed(3)}  (${versus(strict.summary.p50, r.summary.p50)})`);
  console.log(`  vs the floor (1 INSERT)                         ${(strict.summary.p50 / c.floor.p50).toFixed(2)}× the floor`);
  console.log(`Stored for the ${c.turns}-turn thread: Looplane ${mb(strict.bytes)}, LangGraph + PostgresSaver ${mb(pgDefault.bytes)} (${versus(strict.bytes, pgDefault.bytes!, 'less', 'more')})`);

  const json = {
    bench: 'step-overhead',
    turns: c.turns,
    looplane: Object.fromEntries(c.looplane.map((r) => [r.label.includes('non-idempotent') ? 'nonIdempotent' : 'idempotent', { p50: round(r.summary.p50), p95: round(r.summary.p95), firstTenth: round(r.summary.firstTenth), lastTenth: round(r.summary.lastTenth), events: r.events, bytes: r.bytes }])),
    langgraph: Object.fromEntries(c.langgraph.map((r) => [`${r.checkpointer}${r.checkpointer === 'postgres' ? `-${r.durability}` : ''}`, { p50: round(r.summary.p50), p95: round(r.summary.p95), firstTenth: round(r.summary.firstTenth), lastTenth: round(r.summary.lastTenth), checkpoints: r.checkpoints, bytes: r.bytes }])),
    floor: { p50: round(c.floor.p50, 3), p95: round(c.floor.p95, 3) },
    ratio: { looplaneOverPostgresSaver: round(ratio(pgDefault), 4), looplaneOverPostgresSaverSync: round(ratio(pgSync), 4), looplaneOverFloor: round(strict.summary.p50 / c.floor.p50, 2), bytesLooplaneOverLangGraph: round(strict.bytes / pgDefault.bytes!, 4) },
  };
  console.log(JSON.stringify(json));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const turns = Number(option('turns') ?? (process.argv.includes('--quick') ? 50 : 200));
  print(await compareStepOverhead(turns));
}
