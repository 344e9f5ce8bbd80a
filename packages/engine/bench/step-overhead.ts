// Engine overhead per step, with no IO: in-memory ports, a scripted model that answers at once,
// tools that return at once. Run: `npx tsx packages/engine/bench/step-overhead.ts` (add --quick
// for a short run). What it measures is described in bench/engine/README.md.
import { apply, drive, fold, initialState, next, promptBytes, type EngineEvent } from '../src/index';
import { InMemoryEventStore, longScript, longScriptTools, payloadsOf, sampleCatalogue, startFixture } from '../src/testing/index';

const quick = process.argv.includes('--quick');
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

async function main() {
  const sizes = quick ? [200, 1000] : [200, 1000, 5000];
  const rounds = quick ? 5 : 20;
  await driveRun(200); // warm-up (JIT)
  console.log('Engine overhead per step, no IO (in-memory ports, instant scripted model and tools)\n');
  console.log('turns   events   steps  compactions   drive µs/step   fold+next ns/event   fold+next µs/step');
  const rows: { perEvent: number }[] = [];
  for (const turns of sizes) {
    const run = await driveRun(turns);
    // The same number of replayed events per size, so best-of statistics compare fairly.
    const perEvent = replayIncremental(run.events, Math.max(2, Math.round((rounds * 200) / turns)));
    const perStep = (perEvent * run.events.length) / run.steps / 1000;
    rows.push({ perEvent });
    console.log(
      `${String(turns).padStart(5)} ${String(run.events.length).padStart(8)} ${String(run.steps).padStart(7)} ${String(run.compactions).padStart(12)} ${fmt(run.nsPerStep / 1000)}       ${fmt(perEvent, 0)}            ${fmt(perStep)}`,
    );
  }
  const base = (await driveRun(200)).events;
  const naive = replayRefolding(base);
  console.log(`\nRefolding the whole log before every next() (200 turns): ${fmt(naive / 1000)} µs/event, ` +
    `${(naive / rows[0]!.perEvent).toFixed(0)}x the incremental reducer; it grows with the log, the reducer does not.`);
  const longest = await driveRun(sizes[sizes.length - 1]!);
  const windows = windowed(longest.events, 10, quick ? 3 : 8);
  console.log(
    `Along the ${sizes[sizes.length - 1]}-turn log (${longest.events.length} events), fold+next ns/event per tenth of the log: ` +
      windows.map((w) => w.toFixed(0)).join(' '),
  );
  console.log(`Last tenth vs first tenth: x${(windows[windows.length - 1]! / windows[0]!).toFixed(2)} (flat = ~1).`);

  // On-demand tool loading: bytes of the prompt (messages + tool definitions) sent to the model.
  console.log('\nPrompt bytes with the 30-tool sample catalogue (30-turn session, 4 tools loaded):');
  for (const toolLoading of ['eager', 'on_demand'] as const) {
    const f = await startFixture({ config: { ...config, toolLoading, model: { model: 'scripted' } }, script: longScript(30), tools: longScriptTools() });
    await drive({ ports: f.ports });
    const requested = payloadsOf(f.store.events, 'model.requested');
    const total = requested.reduce((sum, r) => sum + r.promptBytes, 0);
    const first = promptBytes(f.requests[0]!.messages, f.requests[0]!.tools);
    console.log(`  ${toolLoading.padEnd(10)} first request ${String(first).padStart(6)} B   all 30 requests ${String(total).padStart(8)} B`);
  }
}

await main();
