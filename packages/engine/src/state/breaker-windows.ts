import type { BREAKERS } from '../events/breaker-trip';
import type { EngineEvent } from '../events/event-types';
import { callFingerprint } from './canonical-call';
import type { HandlerGroup } from './handlers';
import type { RunState } from './run-state';

type BreakerName = (typeof BREAKERS)[number];

/** The longest repeatCall window a policy may ask for; the fold keeps no more turns than this. */
export const BREAKER_MAX_WINDOW_TURNS = 100;
/** The spendRate window: spend in the minute before the call. */
export const SPEND_WINDOW_MS = 60_000;

/**
 * What the breakers need from a session's history, kept by the fold: so it is the same after a
 * restart on any worker, after a fork (the branch inherits its parent's windows up to the fork
 * point), and on replay of the same log. A trip restarts its breaker's window (`breaker.tripped`).
 */
export interface BreakerWindows {
  /** Tool calls requested in the last {@link BREAKER_MAX_WINDOW_TURNS} turns since repeatCall's window restarted, oldest first. */
  calls: { turn: number; seq: number; callId: string; fingerprint: string }[];
  /** Tools the session has called (a call of any other is progress). */
  toolsUsed: string[];
  /** The latest workspace commit a call reported (a different one is progress). */
  lastCommit: string | null;
  /** Completed turns in a row, with tool calls and without progress, since noProgress's window restarted. */
  idleTurns: number;
  /** The current turn called a tool, and made progress. */
  turnHasCalls: boolean;
  turnProgress: boolean;
  /**
   * Model spend of the last minute since spendRate's window restarted, by event time. `sumTokens` and
   * `sumCostMicros` run over the session (each entry's includes itself), so the spend between two
   * entries is one subtraction: {@link recentSpend} is a binary search, not a pass over the minute
   * (a fast model fills a minute with thousands of turns).
   */
  spend: SpendEntry[];
  /** Every entry's time is at least the one before it (event times normally are): the search holds. */
  spendOrdered: boolean;
  /** When each breaker last tripped (event time, epoch ms; 0: never): its window starts there. */
  restartedAt: Record<BreakerName, number>;
  /** The call a breaker paused, while its approval is pending. */
  pausedCallId: string | null;
}

interface SpendEntry {
  atMs: number;
  tokens: number;
  costMicros: number;
  sumTokens: number;
  sumCostMicros: number;
}

/** Windows of a session with no history. */
export function initialBreakerWindows(): BreakerWindows {
  return {
    calls: [],
    toolsUsed: [],
    lastCommit: null,
    idleTurns: 0,
    turnHasCalls: false,
    turnProgress: false,
    spend: [],
    spendOrdered: true,
    restartedAt: { repeatCall: 0, noProgress: 0, spendRate: 0, fanOut: 0 },
    pausedCallId: null,
  };
}

/** Adds a model call's spend at `atMs` and drops what the minute before it no longer holds. */
export function addSpend(w: BreakerWindows, atMs: number, tokens: number, costMicros: number): void {
  const last = w.spend.at(-1);
  if (last && atMs < last.atMs) w.spendOrdered = false;
  w.spend.push({ atMs, tokens, costMicros, sumTokens: (last?.sumTokens ?? 0) + tokens, sumCostMicros: (last?.sumCostMicros ?? 0) + costMicros });
  while (w.spend.length > 0 && w.spend[0]!.atMs <= atMs - SPEND_WINDOW_MS) w.spend.shift();
  if (w.spend.length <= 1) w.spendOrdered = true;
}

/**
 * Updates the windows for one event, after its handler ran. O(1) amortised: windows are pruned as
 * they slide, so a long session costs no more per event than a short one.
 */
export function observeBreakers(state: RunState, event: EngineEvent): void {
  const w = state.breakers;
  switch (event.type) {
    case 'tool.requested': {
      const p = event.payload;
      w.calls.push({ turn: state.turn, seq: event.seq, callId: p.callId, fingerprint: callFingerprint(p.name, p.args) });
      while (w.calls.length > 0 && w.calls[0]!.turn <= state.turn - BREAKER_MAX_WINDOW_TURNS) w.calls.shift();
      w.turnHasCalls = true;
      if (!w.toolsUsed.includes(p.name)) {
        w.toolsUsed.push(p.name);
        w.turnProgress = true;
      }
      return;
    }
    case 'tool.finished': {
      const { commit } = event.payload;
      if (commit !== undefined && commit !== w.lastCommit) {
        w.lastCommit = commit;
        w.turnProgress = true;
      }
      return;
    }
    case 'model.responded': {
      // A new turn: the one before it is complete.
      if (w.turnHasCalls) w.idleTurns = w.turnProgress ? 0 : w.idleTurns + 1;
      w.turnHasCalls = false;
      w.turnProgress = false;
      const { usage, costMicros } = event.payload;
      addSpend(w, Date.parse(event.at), usage.inputTokens + usage.outputTokens, costMicros);
      return;
    }
    case 'model.failed':
    case 'compaction.applied': {
      const { usage, costMicros } = event.payload;
      if (usage) addSpend(w, Date.parse(event.at), usage.inputTokens + usage.outputTokens, costMicros ?? 0);
      return;
    }
    case 'approval.decided': {
      if (w.pausedCallId !== event.payload.callId) return;
      w.pausedCallId = null;
      // Approving a breaker resumes the session; it is no verdict on the call itself, which goes
      // on as the policy allowed it (never as an approved call, which effect rules would spare).
      const call = state.calls.find((c) => c.id === event.payload.callId);
      if (event.payload.approved && call?.status === 'approved') call.status = 'allowed';
      return;
    }
    default:
      return;
  }
}

/** `breaker.tripped`: the call waits for the approval that follows, and the breaker's window restarts. */
export const breakerHandlers: HandlerGroup<'breaker.tripped'> = {
  'breaker.tripped': (state, p, event) => {
    const w = state.breakers;
    w.pausedCallId = p.callId;
    w.restartedAt[p.breaker] = Date.parse(event.at);
    if (p.breaker === 'repeatCall') {
      // Later calls of the same turn were requested already: they stay, and count from zero.
      const at = w.calls.findIndex((c) => c.callId === p.callId);
      w.calls = w.calls.slice(at + 1);
    }
    if (p.breaker === 'noProgress') {
      w.idleTurns = 0;
      // The turn it tripped in does not count towards the next trip either.
      w.turnProgress = true;
    }
    if (p.breaker === 'spendRate') {
      w.spend = [];
      w.spendOrdered = true;
    }
  },
};

/**
 * How many times the call `callId` has been requested within the last `windowTurns` turns of
 * `turn`, itself included (0 for a call the window does not hold).
 */
export function repeatCount(w: BreakerWindows, callId: string, turn: number, windowTurns: number): number {
  const self = w.calls.find((c) => c.callId === callId);
  if (!self) return 0;
  let count = 0;
  for (const c of w.calls) if (c.seq <= self.seq && c.turn > turn - windowTurns && c.fingerprint === self.fingerprint) count++;
  return count;
}

/** Model spend in the minute up to `nowMs` (since spendRate's window restarted). */
export function recentSpend(w: BreakerWindows, nowMs: number): { tokens: number; costMicros: number } {
  if (!w.spendOrdered) return spendByScan(w.spend, nowMs);
  // Entries in (nowMs - window, nowMs]: from the first after the window's start to the last not after now.
  const from = firstAfter(w.spend, nowMs - SPEND_WINDOW_MS);
  const to = firstAfter(w.spend, nowMs) - 1;
  if (to < from) return { tokens: 0, costMicros: 0 };
  const first = w.spend[from]!;
  const last = w.spend[to]!;
  return {
    tokens: last.sumTokens - first.sumTokens + first.tokens,
    costMicros: last.sumCostMicros - first.sumCostMicros + first.costMicros,
  };
}

/** The index of the first entry later than `atMs` (the length when none is). */
function firstAfter(spend: readonly SpendEntry[], atMs: number): number {
  let lo = 0;
  let hi = spend.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spend[mid]!.atMs <= atMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The same sum by looking at every entry: for a window whose times went backwards. */
function spendByScan(spend: readonly SpendEntry[], nowMs: number): { tokens: number; costMicros: number } {
  let tokens = 0;
  let costMicros = 0;
  for (const s of spend) {
    if (s.atMs <= nowMs - SPEND_WINDOW_MS || s.atMs > nowMs) continue;
    tokens += s.tokens;
    costMicros += s.costMicros;
  }
  return { tokens, costMicros };
}
