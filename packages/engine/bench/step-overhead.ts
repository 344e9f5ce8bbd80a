// Engine overhead per step, with no IO: in-memory ports, a scripted model that answers at once,
// tools that return at once. Run: `npx tsx packages/engine/bench/step-overhead.ts [--quick]
// [--repeat N]`: the measurements are repeated 5 times (1 at --quick) and the last line is one JSON
// line with the figures (medians over the repetitions, min–max) in the results format of
// bench/report/schema.ts. What it measures is described in bench/engine/README.md.
import { apply, drive, fold, initialState, next, promptBytes, type EngineEvent } from '../src/index';
import { InMemoryEventStore, longScript, longScriptTools, payloadsOf, sampleCatalogue, startFixture } from '../src/testing/index';

const quick = process.argv.includes('--quick');
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const config = { tools: sampleCatalogue(), model: { model: 'scripted', contextWindow: 8000, maxOutputTokens: 1000 }, limits: { maxTurns: 100_000 } };

/** Best of `rounds` timings of `fn`, in nanoseconds (best-of filters GC and scheduler noise). */
function bestOf(rounds: number, fn: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    fn();
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return best;
}

/** A whole drive of `turns` turns; returns µs per step and the log. */
async function driveRun(turns: number) {
  // No JSON round trip + schema check in the store: the figure is the engine's own.
  const store = new InMemoryEventStore([], { validate: false });
  const f = await startFixture({ config, script: longScript(turns), tools: longScriptTools(), store });
  const start = process.hrtime.bigint();
  const { steps, state } = await drive({ ports: f.ports, deltaChunkChars: 256 });
  const ns = Number(process.hrtime.bigint() - start);
  if (state.status !== 'succeeded') throw new Error(`run ended ${state.status}: ${state.error}`);
  return { steps, nsPerStep: ns / steps, events: store.events, compactions: state.totals.compactions };
}

/** Incremental replay: apply each event and ask next() after it. ns per event. */
function replayIncremental(events: EngineEvent[], rounds: number): number {
  return (
    bestOf(rounds, () => {
      const state = initialState();
      for (const event of events) {
        apply(state, event);
        next(state);
      }
    }) / events.length
  );
}

/** fold+next ns/event in consecutive windows along one log: flat means the cost ignores log length. */
function windowed(events: EngineEvent[], windows: number, rounds: number): number[] {
  const size = Math.floor(events.length / windows);
  const best = new Array<number>(windows).fill(Number.POSITIVE_INFINITY);
  for (let r = 0; r < rounds; r++) {
    const state = initialState();
    for (let w = 0; w < windows; w++) {
      const start = process.hrtime.bigint();
      for (let i = w * size; i < (w + 1) * size; i++) {
        apply(state, events[i]!);
        next(state);
      }
      best[w] = Math.min(best[w]!, Number(process.hrtime.bigint() - start) / size);
    }
  }
  return best;
}

/** The naive alternative: refold the whole prefix before every next(). ns per event. */
function replayRefolding(events: EngineEvent[]): number {
  return (
    bestOf(1, () => {
      for (let i = 1; i <= events.length; i++) next(fold(events.slice(0, i)));
    }) / events.length
  );
}

const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);

/**
 * The median of one value per repetition, with min–max: bench/compare/stats.ts `stat()`, repeated
 * here because the engine's workspace imports nothing outside itself.
 */
function stat(values: number[], digits = 3) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const round = (x: number) => Number(x.toFixed(digits));
  return { median: round(median), min: round(sorted[0]!), max: round(sorted.at(-1)!), n: sorted.length };
}

interface SizeRow {
  turns: number;
  events: number;
  steps: number;
  compactions: number;
  driveUsPerStep: number;
  foldNextNsPerEvent: number;
  foldNextUsPerStep: number;
}

interface Repetition {
  sizes: SizeRow[];
  /** Refolding the whole 200-turn log before every next(), ns per event. */
  refoldNsPerEvent: number;
  /** fold+next ns/event per tenth of the longest log. */
  windows: number[];
  lastVsFirstTenth: number;
  promptBytes: Record<'eager' | 'on_demand', { first: number; total: number }>;
}

async function repetition(sizes: number[], rounds: number): Promise<Repetition> {
  const rows: SizeRow[] = [];
  for (const turns of sizes) {
    const run = await driveRun(turns);
    // The same number of replayed events per size, so best-of statistics compare fairly.
    const perEvent = replayIncremental(run.events, Math.max(2, Math.round((rounds * 200) / turns)));
    rows.push({
      turns,
      events: run.events.length,
      steps: run.steps,
      compactions: run.compactions,
      driveUsPerStep: run.nsPerStep / 1000,
      foldNextNsPerEvent: perEvent,
      foldNextUsPerStep: (perEvent * run.events.length) / run.steps / 1000,
    });
  }
  const refoldNsPerEvent = replayRefolding((await driveRun(200)).events);
  const longest = await driveRun(sizes[sizes.length - 1]!);
  const windows = windowed(longest.events, 10, quick ? 3 : 8);
  // On-demand tool loading: bytes of the prompt (messages + tool definitions) sent to the model.
  const promptBytesOf = async (toolLoading: 'eager' | 'on_demand') => {
    const f = await startFixture({ config: { ...config, toolLoading, model: { model: 'scripted' } }, script: longScript(30), tools: longScriptTools() });
    await drive({ ports: f.ports });
    const requested = payloadsOf(f.store.events, 'model.requested');
    return { first: promptBytes(f.requests[0]!.messages, f.requests[0]!.tools), total: requested.reduce((sum, r) => sum + r.promptBytes, 0) };
  };
  return {
    sizes: rows,
    refoldNsPerEvent,
    windows,
    lastVsFirstTenth: windows[windows.length - 1]! / windows[0]!,
    promptBytes: { eager: await promptBytesOf('eager'), on_demand: await promptBytesOf('on_demand') },
  };
}

/** The figures in the results format (bench/report/schema.ts), over the repetitions. */
function figuresOf(reps: Repetition[]) {
  const longest = reps[0]!.sizes.at(-1)!;
  const at = (turns: number, pick: (r: SizeRow) => number) => reps.map((r) => pick(r.sizes.find((s) => s.turns === turns)!));
  const flat = stat(reps.map((r) => r.lastVsFirstTenth));
  const incremental200 = at(200, (r) => r.foldNextNsPerEvent);
  const refold = reps.map((r) => r.refoldNsPerEvent);
  const onDemand = reps.map((r) => r.promptBytes.on_demand.first);
  const eager = reps.map((r) => r.promptBytes.eager.first);
  return [
    {
      key: 'engine-step.drive-us-per-step',
      label: `drive() per step, ${longest.turns}-turn coding session (in-memory ports, instant model and tools; ${longest.compactions} compactions)`,
      unit: 'µs',
      looplane: stat(at(longest.turns, (r) => r.driveUsPerStep)),
      goals: [],
    },
    {
      key: 'engine-step.fold-next-us-per-step',
      label: `the decision alone: apply(event) + next() per step, replaying the ${longest.turns}-turn log (best of rounds)`,
      unit: 'µs',
      looplane: stat(at(longest.turns, (r) => r.foldNextUsPerStep)),
      goals: [],
    },
    {
      key: 'engine-step.flat',
      label: `flat along the log: fold+next ns/event, last tenth ÷ first tenth of the ${longest.turns}-turn log (${longest.events} events)`,
      unit: '×',
      looplane: flat,
      goals: [{ text: `last tenth ≤ ${FLAT}× the first`, met: flat.median <= FLAT }],
    },
    {
      key: 'engine-step.incremental-vs-refold',
      label: 'fold+next per event, 200-turn log: the incremental reducer vs refolding the whole prefix before every next()',
      unit: 'ns',
      looplane: stat(incremental200, 0),
      peer: { label: 'refold before every next()', value: stat(refold, 0) },
      ratio: {
        value: stat(
          incremental200.map((x, i) => x / refold[i]!),
          5,
        ),
        below: 'faster',
        above: 'slower',
      },
      goals: [],
    },
    {
      key: 'engine-step.prompt-bytes-on-demand',
      label: 'first prompt sent to the model, 30-tool catalogue: on-demand tool loading vs every schema (eager)',
      unit: 'B',
      looplane: stat(onDemand, 0),
      peer: { label: 'eager (every tool schema)', value: stat(eager, 0) },
      ratio: { value: stat(onDemand.map((x, i) => x / eager[i]!)), below: 'less', above: 'more' },
      goals: [],
    },
  ];
}

/** "Flat", as the other benchmarks judge it: the last tenth within 1.2x of the first. */
const FLAT = 1.2;

async function main() {
  const sizes = quick ? [200, 1000] : [200, 1000, 5000];
  const rounds = quick ? 5 : 20;
  const repeat = Number(option('repeat') ?? (quick ? 1 : 5));
  await driveRun(200); // warm-up (JIT)
  console.log(`Engine overhead per step, no IO (in-memory ports, instant scripted model and tools); ${repeat} repetition(s), medians over them\n`);
  const reps: Repetition[] = [];
  for (let i = 0; i < repeat; i++) {
    reps.push(await repetition(sizes, rounds));
    if (repeat > 1)
      console.log(
        `  repetition ${i + 1}/${repeat}: ${sizes.at(-1)} turns, drive ${reps.at(-1)!.sizes.at(-1)!.driveUsPerStep.toFixed(2)} µs/step, fold+next ${reps.at(-1)!.sizes.at(-1)!.foldNextNsPerEvent.toFixed(0)} ns/event`,
      );
  }
  const median = (values: number[]) => stat(values).median;
  console.log('\nturns   events   steps  compactions   drive µs/step   fold+next ns/event   fold+next µs/step');
  for (const [k, row] of reps[0]!.sizes.entries()) {
    const over = (pick: (r: SizeRow) => number) => median(reps.map((r) => pick(r.sizes[k]!)));
    console.log(
      `${String(row.turns).padStart(5)} ${String(row.events).padStart(8)} ${String(row.steps).padStart(7)} ${String(row.compactions).padStart(12)} ${fmt(over((r) => r.driveUsPerStep))}       ${fmt(
        over((r) => r.foldNextNsPerEvent),
        0,
      )}            ${fmt(over((r) => r.foldNextUsPerStep))}`,
    );
  }
  const naive = median(reps.map((r) => r.refoldNsPerEvent));
  console.log(
    `\nRefolding the whole log before every next() (200 turns): ${fmt(naive / 1000)} µs/event, ` +
      `${(naive / median(reps.map((r) => r.sizes[0]!.foldNextNsPerEvent))).toFixed(0)}x the incremental reducer; it grows with the log, the reducer does not.`,
  );
  const windows = reps[0]!.windows.map((_, w) => median(reps.map((r) => r.windows[w]!)));
  console.log(
    `Along the ${sizes[sizes.length - 1]}-turn log (${reps[0]!.sizes.at(-1)!.events} events), fold+next ns/event per tenth of the log: ${windows.map((w) => w.toFixed(0)).join(' ')}`,
  );
  console.log(`Last tenth vs first tenth: x${median(reps.map((r) => r.lastVsFirstTenth)).toFixed(2)} (flat = ~1).`);

  console.log('\nPrompt bytes with the 30-tool sample catalogue (30-turn session, 4 tools loaded):');
  for (const toolLoading of ['eager', 'on_demand'] as const) {
    const { first, total } = reps[0]!.promptBytes[toolLoading];
    console.log(`  ${toolLoading.padEnd(10)} first request ${String(first).padStart(6)} B   all 30 requests ${String(total).padStart(8)} B`);
  }
  const figures = figuresOf(reps);
  for (const f of figures) for (const g of f.goals) console.log(`goal: ${f.label}: ${f.looplane.median} ${f.unit}, ${g.text}: ${g.met ? 'met' : 'MISSED'}`);
  console.log(JSON.stringify({ bench: 'engine-step', figures, quick, repeat, sizes, rounds, repetitions: reps }));
}

await main();
