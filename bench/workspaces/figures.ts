// The workspace snapshot figures in the results format (bench/report/schema.ts): each the median
// over the repetitions of that repetition's p50 (or value), with min–max. Goals (bench/README.md,
// section 7): a one-file snapshot of the small workspace at p50 < 5 ms, and the big workspace's
// one-file p50 within 2× the small one's (the cost grows with the change, not the workspace),
// judged on the median of the per-repetition ratios.
import { stat } from '../compare/stats';
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';

export const SNAPSHOT_GOALS = { smallOneFileP50Ms: 5, scaleFactor: 2 };

/** One value per repetition of each figure. */
export interface SnapshotSeries {
  small: { label: string; oneFileSaveP50: number[] };
  big: {
    label: string;
    oneFileSaveP50: number[];
    tenFileSaveP50: number[];
    oneFileCommitP50: number[];
    oneFileBytes: number[];
    restoreMs: number[];
    packs: number;
  };
  spawnFloorP50: number[];
}

export function snapshotFigures(s: SnapshotSeries): Figure[] {
  const small = stat(s.small.oneFileSaveP50);
  const bigVsSmall = stat(s.big.oneFileSaveP50.map((big, i) => big / s.small.oneFileSaveP50[i]!));
  const figures: FigureInput[] = [
    {
      key: 'workspace-snapshots.small-one-file-save-p50',
      label: `${s.small.label}, one-file call: snapshot (git pack-objects + the store's transaction) p50`,
      unit: 'ms',
      looplane: small,
      goals: [{ text: `p50 < ${SNAPSHOT_GOALS.smallOneFileP50Ms} ms`, met: small.median < SNAPSHOT_GOALS.smallOneFileP50Ms }],
    },
    {
      key: 'workspace-snapshots.big-vs-small',
      label: `${s.big.label}, one-file call: snapshot p50, against the small workspace's in the same repetition`,
      unit: 'ms',
      looplane: stat(s.big.oneFileSaveP50),
      peer: { label: s.small.label, value: small },
      ratio: { value: bigVsSmall, below: 'faster', above: 'slower' },
      goals: [
        {
          text: `within ${SNAPSHOT_GOALS.scaleFactor}× the small workspace's (grows with the change, not the workspace)`,
          met: bigVsSmall.median <= SNAPSHOT_GOALS.scaleFactor,
        },
      ],
    },
    {
      key: 'workspace-snapshots.big-ten-file-save-p50',
      label: `${s.big.label}, ten-file call: snapshot p50`,
      unit: 'ms',
      looplane: stat(s.big.tenFileSaveP50),
    },
    {
      key: 'workspace-snapshots.big-one-file-commit-p50',
      label: `${s.big.label}, one-file call: commit (git add/diff/commit) p50`,
      unit: 'ms',
      looplane: stat(s.big.oneFileCommitP50),
    },
    {
      key: 'workspace-snapshots.big-one-file-bytes',
      label: `${s.big.label}, one-file call: bytes added to the store (median call)`,
      unit: 'B',
      looplane: stat(s.big.oneFileBytes, 0),
    },
    {
      key: 'workspace-snapshots.big-restore',
      label: `${s.big.label}: cold restore of ${s.big.packs} packs on an empty host (init + fetch + reset --hard)`,
      unit: 'ms',
      looplane: stat(s.big.restoreMs, 0),
    },
    {
      key: 'workspace-snapshots.spawn-floor-p50',
      label: 'floor under every git step: spawn `true` from the bench process and wait, p50',
      unit: 'ms',
      looplane: stat(s.spawnFloorP50),
    },
  ];
  return FigureSchema.array().parse(figures);
}
