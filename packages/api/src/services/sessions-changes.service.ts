import { commitEventCount, commitEvents, type CommitEventRow, type Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { queryableOf } from '@looplane/db';
import { ancestry, findTeamSession } from './sessions-ancestry';
import { commitAtEvent } from './sessions-commits';

/** Committing calls read per branch (oldest first); the rest is counted (`more`), not sent. */
const MAX_CHANGES = 1000;
/** A call's diff larger than this is cut (with `truncated`). */
const MAX_DIFF_CHARS = 1_000_000;

interface ChangesDeps {
  db: Db;
  workspaces: WorkspaceReader | null;
}

/**
 * One event that recorded a workspace commit: a tool call (where it finished, what it was, what
 * it made) or a restore (`sessions.restore`: which event's files it put back, and which paths).
 */
interface SessionChange {
  kind: 'call' | 'restore';
  /** The seq of its `tool.finished` or `workspace.restored` (the event the Files tab shows the files at). */
  seq: number;
  /** A call's `tool.requested` seq; null when the request is not in this link of the log, or for a restore. */
  requestedSeq: number | null;
  /** A call's id, tool and arguments (null for a restore). */
  callId: string | null;
  tool: string | null;
  args: unknown;
  /** A restore's: the event whose files it put back, and its paths (null: the whole workspace). */
  restoredFrom: number | null;
  paths: string[] | null;
  commit: string;
  /** The commit it started from (the previous change's); null: the empty workspace. */
  baseCommit: string | null;
}

/**
 * The events of a branch's log (through its ancestry) that recorded a workspace commit other
 * than the one before them, oldest first, each with that base commit: what the run page's Files
 * tab lists as "changes" (the calls that changed files, and restores). A change's base is the
 * commit recorded before it, the same reading as `sessions.files` at the event before it.
 */
export async function sessionChanges(deps: ChangesDeps, teamId: string, sessionId: string) {
  const session = await findTeamSession(deps.db, teamId, sessionId);
  const chain = await ancestry(deps.db, session);
  const db = queryableOf(deps.db);
  const rows: CommitEventRow[] = [];
  let total = 0;
  for (const link of chain) {
    if (link.upTo <= link.from) continue;
    total += await commitEventCount(db, link);
    if (rows.length < MAX_CHANGES) rows.push(...(await commitEvents(db, link, MAX_CHANGES - rows.length)));
  }
  // A mutating call that left the files as they were (a shell `cat`) records its base again: not a change.
  const changes: SessionChange[] = rows
    .map(({ type, ...row }, i) => ({
      kind: type === 'workspace.restored' ? ('restore' as const) : ('call' as const),
      ...row,
      baseCommit: i === 0 ? null : rows[i - 1]!.commit,
    }))
    .filter((c) => c.commit !== c.baseCommit);
  return { sessionId: session.id, runId: session.runId, lastSeq: session.lastSeq, changes, more: total - rows.length };
}

/**
 * The diff one tool call (or restore) made: from the commit recorded before its `tool.finished`
 * or `workspace.restored` (event `atEvent`) to the commit it recorded, read from the workspace
 * store. An event that is neither (with a commit) is BAD_REQUEST saying so; without readable
 * workspaces the answer has `diff: null` and the reason, as `sessions.diff` does. A restore's
 * answer has `callId: null`.
 */
export async function callDiff(deps: ChangesDeps, teamId: string, input: { sessionId: string; atEvent: number }) {
  const session = await findTeamSession(deps.db, teamId, input.sessionId);
  const chain = await ancestry(deps.db, session);
  const link = chain.find((l) => input.atEvent > l.from && input.atEvent <= l.upTo);
  if (!link)
    throw new AppError('BAD_REQUEST', `Session ${session.id} has ${session.lastSeq} committed event(s); atEvent must be between 1 and ${session.lastSeq}`);
  const event = await deps.db.event.findFirst({ where: { sessionId: link.sessionId, seq: input.atEvent }, select: { type: true, payload: true } });
  const payload = (event?.payload ?? {}) as { callId?: unknown; commit?: unknown };
  const call = event?.type === 'tool.finished' && typeof payload.callId === 'string';
  if (!(call || event?.type === 'workspace.restored') || typeof payload.commit !== 'string') {
    throw new AppError(
      'BAD_REQUEST',
      `Event #${input.atEvent} is not the end of a tool call that changed files, nor a restore (a tool.finished or workspace.restored with a workspace commit)`,
    );
  }
  const commit = payload.commit;
  const baseCommit = await commitAtEvent(deps.db, chain, input.atEvent - 1);
  const head = { sessionId: session.id, atEvent: input.atEvent, callId: call ? (payload.callId as string) : null, commit, baseCommit };
  if (!deps.workspaces)
    return { ...head, diff: null, truncated: false, reason: 'session files are not readable by this server (it has no workspace store configured)' };
  try {
    const text = await deps.workspaces.diff(session.runId, baseCommit, commit);
    const cut = text.length > MAX_DIFF_CHARS;
    return { ...head, diff: cut ? text.slice(0, MAX_DIFF_CHARS) : text, truncated: cut, reason: null };
  } catch (error) {
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) {
      return { ...head, diff: null, truncated: false, reason: `the workspace files are not available: ${error.message}` };
    }
    throw error;
  }
}
