// The step-overhead comparison's figures in the results format (bench/report/schema.ts): each the
// median over the repetitions with min–max, the peer measured in the same repetitions beside it,
// and the goals judged on the medians. The headline is the strict row against PostgresSaver `sync`:
// both make every step durable before the next begins (bench/README.md, section 1).
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';
import type { LangGraphVariant, StepComparison, StepRepetition } from './step-overhead';
import type { StepVariant } from '../runtime/step-overhead';
import { stat } from './stats';

/** Goals: the README's (p50, flat, ≥ 10× LangGraph) and issue #18's (within 3× the INSERT floor measured in the same run). */
const STEP_GOALS = { p50Ms: 2, timesFasterThanSync: 10, timesFloor: 3, flat: 1.2 };

const TIME = { below: 'faster', above: 'slower' };
const SIZE = { below: 'less', above: 'more' };

export function stepFigures(c: StepComparison): Figure[] {
  const ours = (key: StepVariant) => (r: StepRepetition) => r.looplane.find((x) => x.key === key)!;
  const peer = (key: LangGraphVariant) => (r: StepRepetition) => r.langgraph.find((x) => x.key === key)!;
  const reps = c.repetitions;
  const p50 = (pick: (r: StepRepetition) => { summary: { p50: number } }) => reps.map((r) => pick(r).summary.p50);
  const ratios = (a: number[], b: number[]) => stat(a.map((x, i) => x / b[i]!));
  const peerLabel = {
    'postgres-sync': 'LangGraph + PostgresSaver, durability `sync`',
    'postgres-async': 'LangGraph + PostgresSaver, durability `async` (its default)',
    memory: 'LangGraph + MemorySaver',
    none: 'LangGraph, no checkpointer',
  } as const;

  const strict = p50(ours('strict'));
  const sync = p50(peer('postgres-sync'));
  const asyncP50 = p50(peer('postgres-async'));
  const floor = reps.map((r) => r.floor.p50);
  const strictVsSync = ratios(strict, sync);
  const strictVsFloor = ratios(strict, floor);
  const flatness = (pick: (r: StepRepetition) => { summary: { firstTenth: number; lastTenth: number } }) =>
    stat(reps.map((r) => pick(r).summary.lastTenth / pick(r).summary.firstTenth));
  const strictFlat = flatness(ours('strict'));
  const strictBytes = reps.map((r) => ours('strict')(r).storage.bytes);
  const syncBytes = reps.map((r) => peer('postgres-sync')(r).bytes ?? 0);
  const mb = (values: number[]) => stat(values.map((b) => b / 1e6));
  const turns = `${c.turns} turns`;

  const figures: FigureInput[] = [
    {
      key: 'step-overhead.strict-vs-sync',
      label: `ms per turn p50, ${turns}: strict (every step durable before the next) vs \`sync\``,
      unit: 'ms',
      looplane: stat(strict),
      peer: { label: peerLabel['postgres-sync'], value: stat(sync) },
      ratio: { value: strictVsSync, ...TIME },
      goals: [
        { text: `p50 ≤ ${STEP_GOALS.p50Ms} ms`, met: stat(strict).median <= STEP_GOALS.p50Ms },
        { text: `≥ ${STEP_GOALS.timesFasterThanSync}× faster than \`sync\``, met: strictVsSync.median <= 1 / STEP_GOALS.timesFasterThanSync },
      ],
    },
    {
      key: 'step-overhead.strict-vs-async',
      label: `strict vs \`async\` (a checkpoint is written while the next step runs)`,
      unit: 'ms',
      looplane: stat(strict),
      peer: { label: peerLabel['postgres-async'], value: stat(asyncP50) },
      ratio: { value: ratios(strict, asyncP50), ...TIME },
    },
    {
      key: 'step-overhead.strict-vs-floor',
      label: 'strict vs the floor: one plain 1 KB JSON INSERT (one commit), same run',
      unit: 'ms',
      looplane: stat(strict),
      peer: { label: 'floor: 1 KB INSERT (pg)', value: stat(floor) },
      ratio: { value: strictVsFloor, below: 'below the floor', above: 'the floor' },
      goals: [{ text: `≤ ${STEP_GOALS.timesFloor}× the INSERT floor`, met: strictVsFloor.median <= STEP_GOALS.timesFloor }],
    },
  ];
  for (const [key, what] of [
    ['nonIdempotent', 'non-idempotent tool, unlimited budget (the model call may start before the tool result commits)'],
    ['idempotent', 'idempotent tool, unlimited budget (the tool call may start before its turn commits)'],
  ] as const) {
    const values = p50(ours(key));
    figures.push({
      key: `step-overhead.${key}-vs-async`,
      label: `${what} vs \`async\``,
      unit: 'ms',
      looplane: stat(values),
      peer: { label: peerLabel['postgres-async'], value: stat(asyncP50) },
      ratio: { value: ratios(values, asyncP50), ...TIME },
    });
  }
  figures.push(
    {
      key: 'step-overhead.strict-flat',
      label: 'flat along the thread: strict, last tenth ÷ first tenth of the turns (ms per turn)',
      unit: '×',
      looplane: strictFlat,
      peer: { label: peerLabel['postgres-sync'], value: flatness(peer('postgres-sync')) },
      goals: [{ text: `last tenth ≤ ${STEP_GOALS.flat}× the first`, met: strictFlat.median <= STEP_GOALS.flat }],
    },
    {
      key: 'step-overhead.storage',
      label: `stored for one ${c.turns}-turn run, every row it left (Looplane: events, audit rows, budget entries, ledgers, run and session; LangGraph: every checkpoint table)`,
      unit: 'MB',
      looplane: mb(strictBytes),
      peer: { label: 'LangGraph + PostgresSaver (`sync`)', value: mb(syncBytes) },
      ratio: { value: ratios(strictBytes, syncBytes), ...SIZE },
    },
  );
  return FigureSchema.array().parse(figures);
}
