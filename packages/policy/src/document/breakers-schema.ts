import { BREAKER_MAX_WINDOW_TURNS } from '@looplane/engine';
import { z } from 'zod';

/**
 * Breakers stop a runaway agent that a budget would only cap: a tripped breaker pauses the session
 * into the approvals inbox (kind `breaker`) before the call that tripped it runs; approving resumes
 * it with the breaker's window started afresh, rejecting cancels the run. Every breaker is decided
 * from the session's own event log (and, for graph-run scopes, the run's other sessions), so a
 * restarted worker or a replay of the same log decides the same.
 */

const enabled = z.boolean().default(true);
const perMinute = z.int().positive();

/**
 * `times` identical tool calls (same tool, arguments equal as canonical JSON) within the last
 * `windowTurns` model turns: the `times`-th pauses before it runs. A window of turns, not of time:
 * a slow model loops as surely as a fast one, and turns replay the same on any clock.
 */
const repeatCallSchema = z
  .strictObject({
    enabled,
    times: z.int().min(2).max(1000).default(8),
    windowTurns: z.int().min(1).max(BREAKER_MAX_WINDOW_TURNS).default(12),
  })
  .prefault({});

/** `turns` consecutive model turns without a workspace change (a new commit) or a tool the session had not used before. */
const noProgressSchema = z
  .strictObject({
    enabled,
    turns: z.int().min(1).max(10_000).default(40),
  })
  .prefault({});

/** Spend in any rolling minute (the minute before the call); a limit left out is not checked. */
const rateLimitSchema = z.strictObject({
  costMicros: perMinute.optional(),
  tokens: perMinute.optional(),
});

/** More than these per minute trips: for one session, and for all sessions of a graph run together. */
const spendRateSchema = z
  .strictObject({
    enabled,
    perSession: rateLimitSchema.default({ costMicros: 5_000_000, tokens: 2_000_000 }),
    perGraphRun: rateLimitSchema.default({ costMicros: 20_000_000, tokens: 10_000_000 }),
  })
  .prefault({});

/** A delegation that would put more than `maxInFlight` child sessions of one graph run to work at once. */
const fanOutSchema = z
  .strictObject({
    enabled,
    maxInFlight: z.int().min(1).max(10_000).default(16),
  })
  .prefault({});

/** The `breakers` section of a policy document; left out, every breaker is on with its defaults. */
export const breakersSchema = z
  .strictObject({
    repeatCall: repeatCallSchema,
    noProgress: noProgressSchema,
    spendRate: spendRateSchema,
    fanOut: fanOutSchema,
  })
  .prefault({});

/** The parsed, defaulted `breakers` section. */
export type BreakersConfig = z.output<typeof breakersSchema>;
