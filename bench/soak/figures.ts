// The soak's figures in the results format (bench/report/schema.ts). One soak is one repetition
// (n = 1): a 20,000-turn session is the measurement, and its buckets are its series. The goals are
// the verdicts' (verdicts.ts): the last bucket within 1.2× of the first, the worker's CPU per turn
// and its memory flat, the context bounded by compaction.
import { stat } from '../compare/stats';
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';
import { MAX_GROWTH, type Verdicts } from './verdicts';

export interface SoakSummary {
  turns: number;
  bucket: number;
  msPerTurn: number;
  bytesStored: number;
  verdicts: Verdicts;
}

export function soakFigures(s: SoakSummary): Figure[] {
  const v = s.verdicts;
  const one = (x: number, digits = 3) => stat([x], digits);
  const bucket = `buckets of ${s.bucket.toLocaleString('en')} turns`;
  const figures: FigureInput[] = [
    {
      key: 'soak.turn-cost',
      label: `ms per turn (trimmed mean), last bucket ÷ first, ${s.turns.toLocaleString('en')} turns in ${bucket}`,
      unit: '×',
      looplane: one(v.turnCost.lastVsFirst),
      goals: [{ text: `last bucket ≤ ${MAX_GROWTH}× the first`, met: v.turnCost.lastVsFirst <= MAX_GROWTH }],
    },
    { key: 'soak.ms-per-turn', label: 'ms per turn over the whole session (wall time; model and tool at 0 ms)', unit: 'ms', looplane: one(s.msPerTurn) },
    {
      key: 'soak.worker-cpu',
      label: "the worker's CPU per turn, later half of the buckets ÷ the earlier half (the first left out)",
      unit: '×',
      looplane: one(v.workerCost.lateVsEarly),
      goals: [{ text: `≤ ${MAX_GROWTH}×`, met: v.workerCost.ok }],
    },
    {
      key: 'soak.rss-growth',
      label: "the worker's RSS at the end ÷ at the end of the second bucket (the first is warm-up)",
      unit: '×',
      looplane: one(v.memory.rssLastVsSecond),
      goals: [{ text: `flat: ≤ ${MAX_GROWTH}×`, met: v.memory.rssLastVsSecond <= MAX_GROWTH }],
    },
    {
      key: 'soak.live-heap-growth',
      label: "the worker's live heap after a full GC at the end ÷ at the end of the second bucket",
      unit: '×',
      looplane: one(v.memory.gcHeapLastVsSecond),
      goals: [{ text: `flat: ≤ ${MAX_GROWTH}×`, met: v.memory.gcHeapLastVsSecond <= MAX_GROWTH }],
    },
    {
      key: 'soak.context-max',
      label: `largest prompt sent to the model, against the compaction bound (threshold × window + one turn); ${v.context.compactions} compactions`,
      unit: 'tokens',
      looplane: one(v.context.maxTokens, 0),
      peer: { label: 'compaction bound', value: one(v.context.boundTokens, 0) },
      goals: [{ text: 'bounded by compaction: at most the bound, at least one compaction', met: v.context.ok }],
    },
    {
      key: 'soak.bytes-per-1000-turns',
      label: 'bytes stored per 1,000 turns (events, audit rows, budget entries; pg_column_size)',
      unit: 'MB',
      looplane: one(((s.bytesStored / s.turns) * 1000) / 1e6),
    },
  ];
  return FigureSchema.array().parse(figures);
}
