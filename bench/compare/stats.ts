// Summaries shared by the side-by-side benchmarks.

/** The q-quantile (0–1) of sorted numbers, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface TurnSummary {
  p50: number;
  p95: number;
  mean: number;
  /** Median over the first and the last tenth of the turns: flat means turn N costs what turn 1 does. */
  firstTenth: number;
  lastTenth: number;
}

/** p50/p95/mean and first/last-tenth medians of per-turn ms, in turn order. */
export function summarize(perTurn: number[]): TurnSummary {
  const sorted = [...perTurn].sort((a, b) => a - b);
  const tenth = Math.max(1, Math.floor(perTurn.length / 10));
  const median = (values: number[]) =>
    quantile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean: perTurn.reduce((a, b) => a + b, 0) / Math.max(1, perTurn.length),
    firstTenth: median(perTurn.slice(0, tenth)),
    lastTenth: median(perTurn.slice(-tenth)),
  };
}

/** "12.3× faster" / "1.4× slower": how `ours` compares with `theirs` (lower is better). */
export function versus(ours: number, theirs: number, better = 'faster', worse = 'slower'): string {
  return ours <= theirs ? `${(theirs / ours).toFixed(1)}× ${better}` : `${(ours / theirs).toFixed(1)}× ${worse}`;
}

/** A CLI option's value (`--name value`), or undefined. */
export function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/**
 * One figure over repetitions: the median of the repetitions' values with their range. Every figure
 * a README quotes has this shape (bench/report/schema.ts), with n ≥ 5 for a full run.
 */
export interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** The {@link Stat} of one value per repetition (the median of an even count is the mean of the middle two). */
export function stat(values: readonly number[], digits = 3): Stat {
  if (values.length === 0) throw new Error('stat() of no repetitions');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: round(median, digits), min: round(sorted[0]!, digits), max: round(sorted.at(-1)!, digits), n: sorted.length };
}
