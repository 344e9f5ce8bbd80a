import { lockAuditChains, queryableOf, teamRunStartUsage, type Tx } from '@looplane/db';
import { AppError } from '@looplane/shared';

/**
 * How much new agent work one team may start (LOOPLANE_RUNS_PER_MINUTE, LOOPLANE_MAX_QUEUED_RUNS
 * in the web app). 0 turns a limit off.
 */
export interface RunStartLimits {
  /** Starts per rolling minute: runs (runs.create, batched or not, graph runs), forks and resumes. */
  perMinute: number;
  /** Runs of the team waiting in the queue (status queued); a new run beyond it is refused. */
  maxQueued: number;
}

export const DEFAULT_RUN_START_LIMITS: RunStartLimits = { perMinute: 120, maxQueued: 1000 };

const WINDOW_MS = 60_000;
/** The hint a full queue gives: it drains as the team's runs start, at no predictable time. */
const QUEUE_RETRY_SECONDS = 15;

/** One start to admit: its team, whether it adds a queued run, and the limits of the process that asks. */
export interface RunStart {
  teamId: string;
  newRun: boolean;
  limits: RunStartLimits;
}

/** A refusal that says when to try again (`Retry-After` over HTTP). */
export type RateLimitedError = AppError & { retryAfterSeconds: number };

function rateLimited(message: string, retryAfterSeconds: number): RateLimitedError {
  return Object.assign(new AppError('TOO_MANY_REQUESTS', message), { retryAfterSeconds });
}

/** The seconds a rate-limited error (or the error it caused) asks the caller to wait, if any. */
export function retryAfterOf(error: unknown): number | null {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const seconds = (e as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (e instanceof AppError && typeof seconds === 'number') return seconds;
  }
  return null;
}

/**
 * Decides, in order, which of `starts` fit their team's limits, inside the transaction that
 * records them; returns the refusal of each start that does not fit (null: admitted). Every start
 * writes an audit row, and the count runs under the teams' audit-chain locks, so concurrent
 * creates on any number of API processes are counted exactly: the lock is held until the
 * transaction commits its own rows. Call it before the transaction takes other locks that a chain
 * writer could hold (row updates), or right where it appends to the chain anyway.
 */
export async function admitRunStarts(tx: Tx, starts: readonly RunStart[], nowMs = Date.now()): Promise<Array<RateLimitedError | null>> {
  const verdicts: Array<RateLimitedError | null> = starts.map(() => null);
  const teams = [...new Set(starts.filter((s) => s.limits.perMinute > 0 || s.limits.maxQueued > 0).map((s) => s.teamId))];
  if (teams.length === 0) return verdicts;
  await lockAuditChains(tx, teams);
  for (const teamId of teams) {
    const mine = starts.flatMap((start, i) => (start.teamId === teamId ? [i] : []));
    const { perMinute, maxQueued } = starts[mine[0]!]!.limits;
    const usage = await teamRunStartUsage(queryableOf(tx), teamId, new Date(nowMs - WINDOW_MS));
    let { started, queued } = usage;
    for (const i of mine) {
      if (perMinute > 0 && started >= perMinute) {
        const wait = usage.oldestMs === null ? 1 : Math.max(1, Math.ceil((usage.oldestMs + WINDOW_MS - nowMs) / 1000));
        verdicts[i] = rateLimited(
          `This team started ${perMinute} runs, forks or resumes in the last minute, its limit (LOOPLANE_RUNS_PER_MINUTE); try again in ${wait} s`,
          wait,
        );
      } else if (starts[i]!.newRun && maxQueued > 0 && queued >= maxQueued) {
        verdicts[i] = rateLimited(
          `This team has ${queued} queued runs, its limit (LOOPLANE_MAX_QUEUED_RUNS); wait for some to start, or cancel some`,
          QUEUE_RETRY_SECONDS,
        );
      } else {
        started++;
        if (starts[i]!.newRun) queued++;
      }
    }
  }
  return verdicts;
}

/** {@link admitRunStarts} for one start: throws its refusal. */
export async function admitRunStart(tx: Tx, start: RunStart): Promise<void> {
  const [refusal] = await admitRunStarts(tx, [start]);
  if (refusal) throw refusal;
}
