import { RunStatus, SessionStatus, WaitReason } from '../generated/prisma/enums';

/**
 * The run and session vocabulary, derived from the schema's enums: the one place the statuses, the
 * finished sets and the wait reasons are named. Browser-safe (the generated enums import nothing),
 * so the dashboard and the CLI read it through `@looplane/db/vocabulary` without the Prisma client.
 */
export { RunStatus, SessionStatus, WaitReason };

export const RUN_STATUSES = Object.values(RunStatus);
export const SESSION_STATUSES = Object.values(SessionStatus);
export const WAIT_REASONS = Object.values(WaitReason);

/** A run in one of these never changes status again (except a message that continues it). */
export const TERMINAL_RUN_STATUSES = [RunStatus.succeeded, RunStatus.failed, RunStatus.cancelled] as const;
export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number];

/** A session in one of these is finished; `sessions.resume` or a continued run reopens it. */
export const TERMINAL_SESSION_STATUSES = [SessionStatus.succeeded, SessionStatus.failed, SessionStatus.cancelled] as const;
export type TerminalSessionStatus = (typeof TERMINAL_SESSION_STATUSES)[number];

const terminalRuns: ReadonlySet<string> = new Set(TERMINAL_RUN_STATUSES);
const terminalSessions: ReadonlySet<string> = new Set(TERMINAL_SESSION_STATUSES);

export const isTerminalRunStatus = (status: string): status is TerminalRunStatus => terminalRuns.has(status);
export const isTerminalSessionStatus = (status: string): status is TerminalSessionStatus => terminalSessions.has(status);

/** A status list as SQL text, `('succeeded', 'failed', 'cancelled')`, for a statement's `IN`. */
export function sqlList(statuses: readonly string[]): string {
  for (const status of statuses) if (!/^[a-z_]+$/.test(status)) throw new Error(`not a status: ${status}`);
  return `(${statuses.map((s) => `'${s}'`).join(', ')})`;
}

/** Runs and sessions share their finished statuses: the list for a statement's `IN`. */
export const FINISHED_STATUSES_SQL = sqlList(TERMINAL_RUN_STATUSES);
