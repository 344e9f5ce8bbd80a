// The seeding figures in the results format (bench/report/schema.ts): each the median over the
// repetitions with min–max, the plain clone measured in the same repetition beside it, the ratio
// taken within each repetition. Goals (bench/README.md, section 8): the first model call of a run
// from a repository within 1.5× a plain `git clone --depth 1`; a fork clones nothing.
import { stat } from '../compare/stats';
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';

export const SEEDING_GOAL_RATIO = 1.5;
export const PEER_LABEL = 'plain `git clone --depth 1`, same server and token';

/** One value per repetition of each series. */
export interface SeedingSeries {
  /** "repository of 5,000 files, 50.0 MB". */
  repository: string;
  cloneMs: number[];
  firstModelCallMs: number[];
  forkMs: number[];
  forkRequests: number[];
}

export function seedingFigures(s: SeedingSeries): Figure[] {
  const clone = stat(s.cloneMs, 1);
  const ratio = stat(
    s.firstModelCallMs.map((ms, i) => ms / s.cloneMs[i]!),
    3,
  );
  const forkRatio = stat(
    s.forkMs.map((ms, i) => ms / s.cloneMs[i]!),
    3,
  );
  const requests = s.forkRequests.reduce((a, b) => a + b, 0);
  const figures: FigureInput[] = [
    {
      key: 'seeding-cost.first-model-call',
      label: `${s.repository}: runs.create → the run's first model call (the worker fetches the repository with the token secret, commits it to the workspace store, then run.started)`,
      unit: 'ms',
      looplane: stat(s.firstModelCallMs, 1),
      peer: { label: PEER_LABEL, value: clone },
      ratio: { value: ratio, below: 'faster', above: 'slower' },
      goals: [{ text: `within ${SEEDING_GOAL_RATIO}× a plain clone`, met: ratio.median <= SEEDING_GOAL_RATIO }],
    },
    {
      key: 'seeding-cost.fork-first-tool-call',
      label: `${s.repository}: sessions.fork of the seeded session at run.started → the fork's first tool call done (its files from the store; git server requests meanwhile: ${requests})`,
      unit: 'ms',
      looplane: stat(s.forkMs, 1),
      peer: { label: PEER_LABEL, value: clone },
      ratio: { value: forkRatio, below: 'faster', above: 'slower' },
      goals: [{ text: 'no second clone (no request to the git server)', met: requests === 0 }],
    },
  ];
  return FigureSchema.array().parse(figures);
}
