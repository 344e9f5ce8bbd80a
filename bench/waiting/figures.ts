// The "waiting is free" figures in the results format (bench/report/schema.ts), each the median
// over the repetitions (a fresh database and worker each) with min–max. Goals (README.md here):
// N parked runs add ~0 to the worker, judged on its live heap after a full GC (RSS moves by tens of
// MB either way with V8's own pace, so it is reported without a goal), and nothing is held while
// they wait. The resume time has no numeric goal.
import { stat } from '../compare/stats';
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';

/** "~0 added": a parked run kept in memory would hold its state and its log, tens of KB. */
const WAITING_GOALS = { liveHeapKbPerWaitingRun: 1 };

/** What one repetition measured (the benchmark's result object, in part). */
export interface WaitingRepetition {
  runs: number;
  resumed: number;
  rssMb: { after: number; added: number };
  gcHeapUsedMb: { added: number };
  addedKbPerWaitingRun: { rss: number; liveHeap: number };
  parkedPerSecond: number;
  heldWhileWaiting: { leases: number; activeJobs: number };
  resumeSeconds: number;
}

export function waitingFigures(reps: readonly WaitingRepetition[]): Figure[] {
  const over = (pick: (r: WaitingRepetition) => number, digits = 3) => stat(reps.map(pick), digits);
  const { runs, resumed } = reps[0]!;
  const n = (x: number) => x.toLocaleString('en');
  const heap = over((r) => r.addedKbPerWaitingRun.liveHeap);
  const held = over((r) => r.heldWhileWaiting.leases + r.heldWhileWaiting.activeJobs, 0);
  const figures: FigureInput[] = [
    {
      key: 'waiting.live-heap-per-waiting-run',
      label: `worker live heap after a full GC added per waiting run (${n(runs)} parked on an approval, after a warm-up slice)`,
      unit: 'KB',
      looplane: heap,
      goals: [{ text: `~0 added: ≤ ${WAITING_GOALS.liveHeapKbPerWaitingRun} KB per waiting run`, met: heap.median <= WAITING_GOALS.liveHeapKbPerWaitingRun }],
    },
    {
      key: 'waiting.live-heap-added',
      label: `worker live heap after a full GC, added by the ${n(runs)} parked runs`,
      unit: 'MB',
      looplane: over((r) => r.gcHeapUsedMb.added),
    },
    {
      key: 'waiting.rss-per-waiting-run',
      label: 'worker RSS added per waiting run (after 3 s idle; V8 keeps or returns heap at its own pace)',
      unit: 'KB',
      looplane: over((r) => r.addedKbPerWaitingRun.rss),
    },
    { key: 'waiting.rss', label: `worker RSS with ${n(runs)} runs parked`, unit: 'MB', looplane: over((r) => r.rssMb.after, 1) },
    {
      key: 'waiting.held-while-waiting',
      label: 'sessions holding a lease + active BullMQ jobs while they wait',
      unit: '',
      looplane: held,
      goals: [{ text: 'nothing held: 0 leases, 0 active jobs in every repetition', met: held.max === 0 }],
    },
    {
      key: 'waiting.resume',
      label: `${n(resumed)} approved by approvals.decideMany (100 per call): until all succeeded, from the first call`,
      unit: 's',
      looplane: over((r) => r.resumeSeconds),
    },
    {
      key: 'waiting.parked-per-second',
      label: 'runs parked per second (claim, model turn, policy decision, approval and audit rows, release)',
      unit: 'runs/s',
      looplane: over((r) => r.parkedPerSecond, 1),
    },
  ];
  return FigureSchema.array().parse(figures);
}
