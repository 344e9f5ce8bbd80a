import { z } from 'zod';

/** The breakers a policy can set (see `@looplane/policy`'s `breakers` section). */
export const BREAKERS = ['repeatCall', 'noProgress', 'spendRate', 'fanOut'] as const;

/**
 * What a tripped breaker measured, for the approver and the audit: `observed` against `limit`, in
 * `unit`, over `window` (e.g. 8 identical calls, limit 8, within 12 turns).
 */
export const breakerTripSchema = z.object({
  name: z.enum(BREAKERS),
  /** session: this session's own history; graphRun: every session of the graph run together. */
  scope: z.enum(['session', 'graphRun']),
  observed: z.number().nonnegative(),
  limit: z.number().nonnegative(),
  unit: z.string().min(1).max(100),
  window: z.string().min(1).max(200),
});
/** A breaker's measurement at its trip. */
export type BreakerTrip = z.output<typeof breakerTripSchema>;
