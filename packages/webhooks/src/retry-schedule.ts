/**
 * When a failed delivery is tried again: after 5 s and 30 s, then backing off to 8 h; the
 * attempts span about 24 hours (23 h 42 min after the first), after which the delivery is failed.
 * Entry n is the wait after the (n+1)th failed attempt in a row.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
];

/** An endpoint whose attempts have failed for this long with none delivered in between is disabled. */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3_600_000;

/**
 * The wait before the next attempt after `failedInARow` failed attempts (1 for the first), or null
 * when the schedule is used up. `scale` multiplies every wait (tests run the schedule in milliseconds).
 */
export function retryDelayMs(failedInARow: number, scale = 1): number | null {
  const wait = WEBHOOK_RETRY_SCHEDULE_MS[failedInARow - 1];
  return wait === undefined ? null : Math.round(wait * scale);
}
