// The soak's goals, as numbers with a pass/fail each: the last bucket of turns costs within 1.2x of
// the first, the worker's memory stays flat, and compaction keeps the context bounded.
import type { BucketFigures } from './series';
import type { MemorySample } from './worker-memory';

/** The most the last bucket may cost, or the worker's memory grow, relative to the reference bucket. */
export const MAX_GROWTH = 1.2;

export interface Verdicts {
  /** Ratios of the trimmed mean per turn (see `msPerTurnTrimmed`); `meanLastVsFirst`: of the plain mean. */
  turnCost: { lastVsFirst: number; lastVsSecond: number; meanLastVsFirst: number; ok: boolean };
  /**
   * The worker's CPU per turn, the mean of the later half of the buckets over the earlier half (the
   * first bucket, JIT warm-up, left out): growth in the worker's own work per turn, which the
   * machine's load moves far less than the wall time.
   */
  workerCost: { lateVsEarly: number; ok: boolean };
  memory: {
    /** Last sample over the one after the second bucket (the first is warm-up: JIT, pools, caches). */
    rssLastVsSecond: number;
    gcHeapLastVsSecond: number;
    /** Least-squares slope of the samples after the first bucket, MB per bucket. */
    rssSlopeMbPerBucket: number;
    gcHeapSlopeMbPerBucket: number;
    ok: boolean;
  };
  context: { maxTokens: number; boundTokens: number; compactions: number; ok: boolean };
  /** What the exit code follows: every verdict, but at a quick size the wall-time one is only reported. */
  gated: Array<'turnCost' | 'workerCost' | 'memory' | 'context'>;
  ok: boolean;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function slope(values: number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

/**
 * `samples[k]` is the worker's memory at the end of bucket k. The context bound is where compaction
 * starts (`threshold` of the window) plus one turn's growth: compaction is planned before a request
 * whose prompt plus the maximum output would cross the threshold, so a prompt over it means
 * compaction did not run or could not shrink the context.
 */
export function judge(
  buckets: BucketFigures[],
  samples: MemorySample[],
  workerCpuMsPerTurn: number[],
  compaction: { threshold: number; contextWindow: number; oneTurnTokens: number },
  options: { gateWallTime: boolean },
): Verdicts {
  const first = buckets[0]!;
  const second = buckets[1] ?? first;
  const last = buckets.at(-1)!;
  const lastVsFirst = last.msPerTurnTrimmed / first.msPerTurnTrimmed;
  const lastVsSecond = last.msPerTurnTrimmed / second.msPerTurnTrimmed;
  const reference = samples[1] ?? samples[0]!;
  const end = samples.at(-1)!;
  const settled = samples.slice(1);
  const rssLastVsSecond = end.rss / reference.rss;
  const gcHeapLastVsSecond = end.gcHeapUsed / reference.gcHeapUsed;
  const maxTokens = Math.max(...buckets.map((b) => b.contextTokensMax));
  const boundTokens = Math.ceil(compaction.threshold * compaction.contextWindow + compaction.oneTurnTokens);
  const compactions = buckets.reduce((n, b) => n + b.compactions, 0);
  const turnCost = { lastVsFirst, lastVsSecond, meanLastVsFirst: last.msPerTurn / first.msPerTurn, ok: lastVsFirst <= MAX_GROWTH };
  const memory = {
    rssLastVsSecond,
    gcHeapLastVsSecond,
    rssSlopeMbPerBucket: slope(settled.map((s) => s.rss)),
    gcHeapSlopeMbPerBucket: slope(settled.map((s) => s.gcHeapUsed)),
    ok: rssLastVsSecond <= MAX_GROWTH && gcHeapLastVsSecond <= MAX_GROWTH,
  };
  const context = { maxTokens, boundTokens, compactions, ok: compactions > 0 && maxTokens <= boundTokens };
  const warm = workerCpuMsPerTurn.slice(1);
  const half = Math.max(1, Math.floor(warm.length / 2));
  const lateVsEarly = mean(warm.slice(-half)) / mean(warm.slice(0, half));
  const workerCost = { lateVsEarly, ok: lateVsEarly <= MAX_GROWTH };
  const verdicts = { turnCost, workerCost, memory, context };
  const gated = (['turnCost', 'workerCost', 'memory', 'context'] as const).filter((name) => name !== 'turnCost' || options.gateWallTime);
  return { ...verdicts, gated, ok: gated.every((name) => verdicts[name].ok) };
}
