import type { Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
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

/** One tool call that recorded a workspace commit: where it finished, what it was, what it made. */
interface SessionChange {
  /** The seq of its `tool.finished` (the event the Files tab shows the call's files at). */
  seq: number;
  /** The seq of its `tool.requested`; null when the request is not in this link of the log. */
  requestedSeq: number | null;
  callId: string;
  tool: string | null;
  args: unknown;
  commit: string;
  /** The commit the call started from (the previous call's); null: the empty workspace. */
  baseCommit: string | null;
}

interface ChangeRow {
  seq: number;
  callId: string;
  commit: string;
  requestedSeq: number | null;
  tool: string | null;
  args: unknown;
}

/**
 * The tool calls of a branch's log (through its ancestry) that recorded a workspace commit other
 * than the one they started from, oldest first, each with that base commit: what the run page's Files tab lists as
 * "calls that changed files". A call's base is the commit recorded before it, the same reading
 * as `sessions.files` at the event before its `tool.finished`.
 */
export async function sessionChanges(deps: ChangesDeps, teamId: string, sessionId: string) {
  const session = await findTeamSession(deps.db, teamId, sessionId);
  const chain = await ancestry(deps.db, session);
  const rows: ChangeRow[] = [];
  let total = 0;
  for (const link of chain) {
    if (link.upTo <= link.from) continue;
    const [count] = await deps.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "Event"
      WHERE "sessionId" = ${link.sessionId} AND seq > ${link.from} AND seq <= ${link.upTo}
        AND type = 'tool.finished' AND jsonb_typeof(payload->'commit') = 'string'`;
    total += count?.n ?? 0;
    if (rows.length >= MAX_CHANGES) continue;
    rows.push(
      ...(await deps.db.$queryRaw<ChangeRow[]>`
        SELECT f.seq, f.payload->>'callId' AS "callId", f.payload->>'commit' AS "commit",
               r.seq AS "requestedSeq", r.payload->>'name' AS "tool", r.payload->'args' AS "args"
        FROM "Event" f
        LEFT JOIN LATERAL (
          SELECT e.seq, e.payload FROM "Event" e
          WHERE e."sessionId" = f."sessionId" AND e.type = 'tool.requested' AND e.seq < f.seq
            AND e.payload->>'callId' = f.payload->>'callId'
          ORDER BY e.seq DESC LIMIT 1
        ) r ON true
        WHERE f."sessionId" = ${link.sessionId} AND f.seq > ${link.from} AND f.seq <= ${link.upTo}
          AND f.type = 'tool.finished' AND jsonb_typeof(f.payload->'commit') = 'string'
        ORDER BY f.seq ASC LIMIT ${MAX_CHANGES - rows.length}`),
    );
  }
  // A mutating call that left the files as they were (a shell `cat`) records its base again: not a change.
  const changes: SessionChange[] = rows
    .map((row, i) => ({ ...row, baseCommit: i === 0 ? null : rows[i - 1]!.commit }))
    .filter((c) => c.commit !== c.baseCommit);
  return { sessionId: session.id, runId: session.runId, lastSeq: session.lastSeq, changes, more: total - rows.length };
}

/**
 * The diff one tool call made: from the commit recorded before its `tool.finished` (event
 * `atEvent`) to the commit it recorded, read from the workspace store. An event that is not a
 * call's `tool.finished` with a commit is BAD_REQUEST saying so; without readable workspaces the
 * answer has `diff: null` and the reason, as `sessions.diff` does.
 */
export async function callDiff(deps: ChangesDeps, teamId: string, input: { sessionId: string; atEvent: number }) {
  const session = await findTeamSession(deps.db, teamId, input.sessionId);
  const chain = await ancestry(deps.db, session);
  const link = chain.find((l) => input.atEvent > l.from && input.atEvent <= l.upTo);
  if (!link)
    throw new AppError('BAD_REQUEST', `Session ${session.id} has ${session.lastSeq} committed event(s); atEvent must be between 1 and ${session.lastSeq}`);
  const event = await deps.db.event.findFirst({ where: { sessionId: link.sessionId, seq: input.atEvent }, select: { type: true, payload: true } });
  const payload = (event?.payload ?? {}) as { callId?: unknown; commit?: unknown };
  if (event?.type !== 'tool.finished' || typeof payload.commit !== 'string' || typeof payload.callId !== 'string') {
    throw new AppError('BAD_REQUEST', `Event #${input.atEvent} is not the end of a tool call that changed files (a tool.finished with a workspace commit)`);
  }
  const commit = payload.commit;
  const baseCommit = await commitAtEvent(deps.db, chain, input.atEvent - 1);
  const head = { sessionId: session.id, atEvent: input.atEvent, callId: payload.callId, commit, baseCommit };
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
