import { DELEGATE, recentSpend, repeatCount, type BreakerTrip, type BreakerWindows } from '@looplane/engine';
import type { BreakersConfig } from '../document/breakers-schema';

/** A trip with the sentence the approver and the audit read. */
export type BreakerVerdict = BreakerTrip & { reason: string };

/** What the graph run as a whole looks like to a call of one of its sessions (read by the worker). */
export interface GraphRunMeasures {
  /** Spend of every session of the run in the minute before the call (since this session's last spendRate trip). */
  spend: { tokens: number; costMicros: number };
  /** Delegations of the run in flight now (sent since this session's last fanOut trip), not counting this call. */
  inFlight?: number;
}

export interface BreakerCheck {
  call: { callId: string; name: string };
  /** The session's completed model turns (the call belongs to this turn). */
  turn: number;
  /** The end of the spend window: the time of the latest event in the log, so the same log decides the same. */
  nowMs: number;
  /** Present for a session of a graph run. */
  graphRun?: GraphRunMeasures;
}

function overRate(
  limit: BreakersConfig['spendRate']['perSession'],
  spent: { tokens: number; costMicros: number },
  scope: 'session' | 'graphRun',
): BreakerVerdict | null {
  const who = scope === 'session' ? 'this session' : 'the graph run';
  if (limit.costMicros !== undefined && spent.costMicros > limit.costMicros) {
    return {
      name: 'spendRate',
      scope,
      observed: spent.costMicros,
      limit: limit.costMicros,
      unit: 'micro-dollars per minute',
      window: 'the last minute',
      reason: `${who} spent ${spent.costMicros} micro-dollars in the last minute, more than its limit of ${limit.costMicros} per minute`,
    };
  }
  if (limit.tokens !== undefined && spent.tokens > limit.tokens) {
    return {
      name: 'spendRate',
      scope,
      observed: spent.tokens,
      limit: limit.tokens,
      unit: 'tokens per minute',
      window: 'the last minute',
      reason: `${who} used ${spent.tokens} tokens in the last minute, more than its limit of ${limit.tokens} per minute`,
    };
  }
  return null;
}

/**
 * Whether a breaker trips before `call` runs, and which: repeatCall, noProgress, spendRate (the
 * session, then the graph run), fanOut (delegations only), the first that trips. Pure: the windows
 * come from the session's fold and the graph run's measures from the caller.
 */
export function checkBreakers(config: BreakersConfig, windows: BreakerWindows, check: BreakerCheck): BreakerVerdict | null {
  const { repeatCall, noProgress, spendRate, fanOut } = config;
  if (repeatCall.enabled) {
    const count = repeatCount(windows, check.call.callId, check.turn, repeatCall.windowTurns);
    if (count >= repeatCall.times) {
      return {
        name: 'repeatCall',
        scope: 'session',
        observed: count,
        limit: repeatCall.times,
        unit: 'identical calls',
        window: `${repeatCall.windowTurns} turns`,
        reason: `the same ${check.call.name} call (equal arguments) was made ${count} times within ${repeatCall.windowTurns} turns; the limit is ${repeatCall.times}`,
      };
    }
  }
  if (noProgress.enabled && windows.idleTurns >= noProgress.turns && !windows.turnProgress) {
    return {
      name: 'noProgress',
      scope: 'session',
      observed: windows.idleTurns,
      limit: noProgress.turns,
      unit: 'turns without progress',
      window: 'consecutive turns',
      reason: `${windows.idleTurns} turns in a row without a workspace change or a new tool; the limit is ${noProgress.turns}`,
    };
  }
  if (spendRate.enabled) {
    const own = overRate(spendRate.perSession, recentSpend(windows, check.nowMs), 'session');
    if (own) return own;
    const run = check.graphRun ? overRate(spendRate.perGraphRun, check.graphRun.spend, 'graphRun') : null;
    if (run) return run;
  }
  if (fanOut.enabled && check.call.name === DELEGATE && check.graphRun?.inFlight !== undefined) {
    const wouldBe = check.graphRun.inFlight + 1;
    if (wouldBe > fanOut.maxInFlight) {
      return {
        name: 'fanOut',
        scope: 'graphRun',
        observed: wouldBe,
        limit: fanOut.maxInFlight,
        unit: 'delegations in flight',
        window: 'now',
        reason: `this delegation would put ${wouldBe} delegations of the graph run in flight at once; the limit is ${fanOut.maxInFlight}`,
      };
    }
  }
  return null;
}
