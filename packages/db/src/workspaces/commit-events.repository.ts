import { WORKSPACE_COMMIT_EVENTS } from '@looplane/engine';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The events that move a session's files (a mutating call's `tool.finished`, a `workspace.restored`)
 * and name a commit, as a condition on the `Event` row `e`. Every reader of "the files at event N"
 * goes through it, so a new kind of such event is added in one place (the engine's list).
 */
const MOVES_FILES = (e: string) =>
  `${e}.type IN (${WORKSPACE_COMMIT_EVENTS.map((type) => `'${type}'`).join(', ')}) AND jsonb_typeof(${e}.payload->'commit') = 'string'`;

/** One link of a session's log: events `(from, upTo]` of `sessionId` (a fork's ancestry, one link per session). */
export interface CommitLink {
  sessionId: string;
  from: number;
  upTo: number;
}

const COMMIT_AT_SQL = namedQuery({
  name: 'looplane_commit_at_v1',
  params: { session_id: param.text, from: param.int, up_to: param.int },
  text: `
SELECT e.payload->>'commit' AS "commit" FROM "Event" e
WHERE e."sessionId" = :session_id AND e.seq > :from AND e.seq <= :up_to AND ${MOVES_FILES('e')}
ORDER BY e.seq DESC LIMIT 1`,
}).returns<{ commit: string }>();

/**
 * The last commit a link of a log records in `(from, upTo]`, or null when none there does. Reads
 * backwards on `(sessionId, seq)` and stops at the first match.
 */
export async function lastCommitIn(db: Queryable, link: CommitLink): Promise<string | null> {
  if (link.upTo <= link.from) return null;
  const found = await db.query(COMMIT_AT_SQL.bind({ session_id: link.sessionId, from: link.from, up_to: link.upTo }));
  return rowsOf(COMMIT_AT_SQL, found)[0]?.commit ?? null;
}

const COUNT_SQL = namedQuery({
  name: 'looplane_commit_events_count_v1',
  params: { session_id: param.text, from: param.int, up_to: param.int },
  text: `SELECT count(*)::int AS n FROM "Event" e WHERE e."sessionId" = :session_id AND e.seq > :from AND e.seq <= :up_to AND ${MOVES_FILES('e')}`,
}).returns<{ n: number }>();

/** How many events of a link record a commit. */
export async function commitEventCount(db: Queryable, link: CommitLink): Promise<number> {
  return rowsOf(COUNT_SQL, await db.query(COUNT_SQL.bind({ session_id: link.sessionId, from: link.from, up_to: link.upTo })))[0]?.n ?? 0;
}

/** An event that recorded a commit: a call (with its request) or a restore (with what it restored). */
export interface CommitEventRow {
  seq: number;
  type: 'tool.finished' | 'workspace.restored';
  commit: string;
  /** A call's id, its request's seq (null when the request is not in this link), tool and arguments. */
  callId: string | null;
  requestedSeq: number | null;
  tool: string | null;
  args: unknown;
  /** A restore's event whose files it put back, and its paths (null: the whole workspace). */
  restoredFrom: number | null;
  paths: string[] | null;
}

const EVENTS_SQL = namedQuery({
  name: 'looplane_commit_events_v1',
  params: { session_id: param.text, from: param.int, up_to: param.int, limit: param.int },
  text: `
SELECT f.seq, f.type, f.payload->>'commit' AS "commit", f.payload->>'callId' AS "callId",
  r.seq AS "requestedSeq", r.payload->>'name' AS "tool", r.payload->'args' AS "args",
  CASE WHEN f.type = 'workspace.restored' THEN (f.payload->>'atEvent')::int END AS "restoredFrom",
  CASE WHEN f.type = 'workspace.restored' THEN f.payload->'paths' END AS "paths"
FROM "Event" f
LEFT JOIN LATERAL (
  SELECT e.seq, e.payload FROM "Event" e
  WHERE f.type = 'tool.finished' AND e."sessionId" = f."sessionId" AND e.type = 'tool.requested' AND e.seq < f.seq
    AND e.payload->>'callId' = f.payload->>'callId'
  ORDER BY e.seq DESC LIMIT 1
) r ON true
WHERE f."sessionId" = :session_id AND f.seq > :from AND f.seq <= :up_to AND ${MOVES_FILES('f')}
ORDER BY f.seq ASC LIMIT :limit`,
}).returns<CommitEventRow>();

/** The events of a link that recorded a commit, oldest first, at most `limit`. */
export async function commitEvents(db: Queryable, link: CommitLink, limit: number): Promise<CommitEventRow[]> {
  const found = await db.query(EVENTS_SQL.bind({ session_id: link.sessionId, from: link.from, up_to: link.upTo, limit }));
  return rowsOf(EVENTS_SQL, found);
}

/**
 * Where a session's files stand, in one round trip: the commit its log last recorded (or, for a
 * branch with no file change of its own yet, its fork point's commit), that commit's depth in the
 * store (null: not stored), and whether retention removed the run's files.
 */
const ORIGIN_SQL = namedQuery({
  name: 'looplane_workspace_origin_v3',
  params: { session_id: param.text },
  text: `
SELECT q."runId", q.target, p.depth AS "storedDepth", w."removedAt", w.reason AS "removedReason"
FROM (
  SELECT s."runId", COALESCE(
    (SELECT e.payload->>'commit' FROM "Event" e
     WHERE e."sessionId" = s.id AND ${MOVES_FILES('e')}
     ORDER BY e.seq DESC LIMIT 1),
    s."workspaceCommit") AS target
  FROM "Session" s WHERE s.id = :session_id
) q
LEFT JOIN "WorkspacePack" p ON p."runId" = q."runId" AND p."commit" = q.target
LEFT JOIN "WorkspaceRemoval" w ON w."runId" = q."runId"`,
}).returns<WorkspaceOrigin>();

export interface WorkspaceOrigin {
  runId: string;
  target: string | null;
  /** The target's depth in the store; null when the store does not hold it. */
  storedDepth: number | null;
  removedAt: Date | null;
  removedReason: string | null;
}

/** Where a session's files stand (see ORIGIN_SQL); null when the session does not exist. */
export async function workspaceOrigin(db: Queryable, sessionId: string): Promise<WorkspaceOrigin | null> {
  return rowsOf(ORIGIN_SQL, await db.query(ORIGIN_SQL.bind({ session_id: sessionId })))[0] ?? null;
}
