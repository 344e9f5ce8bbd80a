import type { Queryable } from './pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { FINISHED_STATUSES_SQL as FINISHED } from '../vocabulary/statuses';

/**
 * Session leases: one worker at a time drives a session. A claim is a compare-and-set that bumps
 * `leaseVersion` (the fencing token every append checks); the holder renews it in batches; a
 * release clears it. All times are the database's, so worker clocks never matter.
 */

export type SessionStatusValue = 'idle' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';
export type WaitReasonValue = 'approval' | 'child' | 'budget' | 'message' | 'isolation';

export interface ClaimedSession {
  sessionId: string;
  runId: string;
  version: number;
  /** Status before the claim (a claim turns idle/waiting into running). */
  previousStatus: SessionStatusValue;
  previousWaitReason: WaitReasonValue | null;
  /** The log's end when claimed: 0 for a session that never started (nothing to load). */
  lastSeq: number;
  /** The fork parent, if any (its events are part of this session's log). */
  parentId: string | null;
}

/**
 * The claim CAS, as SQL conditions on the Session row `alias` (`owner` a SQL expression).
 * Claimable: not finished, and the lease is free, expired, or already this owner's (the caller guarantees it does not drive the session right now: a retried job of the same
 * process takes its own lease back at once instead of waiting for it to expire).
 */
export function claimableSql(alias: string, owner: string): string {
  return `${alias}.status IN ('idle', 'running', 'waiting')
    AND (${alias}."leaseOwner" IS NULL OR ${alias}."leaseExpiresAt" <= statement_timestamp() OR ${alias}."leaseOwner" = ${owner})`;
}

/**
 * The claim of the rows of `prev` (their pre-claim status, locked): an UPDATE of "Session" aliased
 * `s` that returns a {@link ClaimedSession} per session taken. `owner` and `ttlMs` are SQL
 * expressions. Shared by {@link claimSessions} and the admission statement.
 */
export function claimUpdateSql(owner: string, ttlMs: string): string {
  return `UPDATE "Session" s SET
    "leaseOwner" = ${owner},
    "leaseVersion" = s."leaseVersion" + 1,
    "leaseExpiresAt" = statement_timestamp() + ${ttlMs} * interval '1 millisecond',
    "status" = 'running',
    "waitReason" = NULL,
    "updatedAt" = statement_timestamp()
  FROM prev WHERE s.id = prev.id AND ${claimableSql('s', owner)}
  RETURNING s.id AS "sessionId", s."runId", s."leaseVersion" AS version, prev.status AS "previousStatus",
    prev."waitReason" AS "previousWaitReason", s."lastSeq", s."parentId"`;
}

const CLAIM_SQL = namedQuery({
  name: 'looplane_claim_v2',
  params: { session_ids: param.textArray, owner: param.text, ttl_ms: param.int },
  text: `
WITH prev AS (
  SELECT p.id, p.status, p."waitReason" FROM "Session" p
  WHERE p.id = ANY(:session_ids) AND ${claimableSql('p', ':owner')}
  FOR UPDATE
)
${claimUpdateSql(':owner', ':ttl_ms')}`,
}).returns<ClaimedSession>();

/** Claims the given sessions that are claimable; returns the ones it got. */
export async function claimSessions(db: Queryable, sessionIds: readonly string[], owner: string, ttlMs: number): Promise<ClaimedSession[]> {
  if (sessionIds.length === 0) return [];
  return rowsOf(CLAIM_SQL, await db.query(CLAIM_SQL.bind({ session_ids: sessionIds, owner, ttl_ms: ttlMs })));
}

export interface HeldLease {
  sessionId: string;
  version: number;
}

export interface RenewalReport {
  sessionId: string;
  /** The lease is still this owner's at this version (false: another worker took it). */
  held: boolean;
  /** The run has a cancel request. */
  cancelRequested: boolean;
  /** The session has inbox messages nobody consumed yet, or restore requests nobody applied (both wait for a step boundary). */
  inboxPending: boolean;
}

/**
 * Renews many leases in one statement. Rows locked by their own session's open write unit are
 * skipped (that unit extends the lease itself when it appends) rather than waited for.
 */
const RENEW_SQL = namedQuery({
  name: 'looplane_renew_v4',
  params: { session_ids: param.textArray, versions: param.intArray, owner: param.text, ttl_ms: param.int },
  text: `
WITH held AS (
  SELECT * FROM unnest(:session_ids, :versions) AS h(id, version)
), locked AS (
  SELECT s.id FROM "Session" s JOIN held ON s.id = held.id AND s."leaseVersion" = held.version
  WHERE s."leaseOwner" = :owner FOR UPDATE OF s SKIP LOCKED
), renewed AS (
  UPDATE "Session" s SET "leaseExpiresAt" = statement_timestamp() + :ttl_ms * interval '1 millisecond'
  FROM locked WHERE s.id = locked.id
)
SELECT held.id AS "sessionId",
  COALESCE(s."leaseOwner" = :owner AND s."leaseVersion" = held.version, false) AS held,
  COALESCE(r."cancelRequestedAt" IS NOT NULL, false) AS "cancelRequested",
  (EXISTS (SELECT 1 FROM "InboxMessage" i WHERE i."sessionId" = held.id AND i."consumedAt" IS NULL)
    OR EXISTS (SELECT 1 FROM "WorkspaceRestore" w WHERE w."sessionId" = held.id AND w."appliedAt" IS NULL)) AS "inboxPending"
FROM held LEFT JOIN "Session" s ON s.id = held.id LEFT JOIN "Run" r ON r.id = s."runId"`,
}).returns<RenewalReport>();

/** Renews the leases this owner holds and reports, per session, whether it still holds it and what is pending. */
export async function renewLeases(db: Queryable, owner: string, leases: readonly HeldLease[], ttlMs: number): Promise<RenewalReport[]> {
  if (leases.length === 0) return [];
  const query = RENEW_SQL.bind({
    session_ids: leases.map((l) => l.sessionId),
    versions: leases.map((l) => l.version),
    owner,
    ttl_ms: ttlMs,
  });
  return rowsOf(RENEW_SQL, await db.query(query));
}

export interface ReleaseOptions {
  /** The session's status after the release (a finished session keeps its own). */
  status: 'running' | 'waiting';
  waitReason: WaitReasonValue | null;
  /** Also set the run's status (main session only; never over a finished run). */
  runStatus: 'running' | 'waiting' | null;
}

export interface ReleaseOutcome {
  released: boolean;
  teamId: string | null;
  /** The session's status after the release. */
  status: SessionStatusValue | null;
  /** Seen by the same statement that released the lease, so a wake-up that raced the release is never lost. */
  cancelRequested: boolean;
  /** An inbox message or a restore request waits (see {@link RenewalReport.inboxPending}). */
  inboxPending: boolean;
}

const RELEASE_SQL = namedQuery({
  name: 'looplane_release_v3',
  params: {
    session_id: param.text,
    owner: param.text,
    version: param.int,
    status: param.text,
    wait_reason: param.nullableText,
    run_status: param.nullableText,
  },
  text: `
WITH s AS (
  UPDATE "Session" SET
    "leaseOwner" = NULL,
    "leaseExpiresAt" = NULL,
    "status" = CASE WHEN "status" IN ${FINISHED} THEN "status" ELSE :status::"SessionStatus" END,
    "waitReason" = CASE WHEN "status" IN ${FINISHED} THEN NULL ELSE :wait_reason::"WaitReason" END,
    "updatedAt" = statement_timestamp()
  WHERE id = :session_id AND "leaseOwner" = :owner AND "leaseVersion" = :version
  RETURNING "runId", "status"
), r AS (
  UPDATE "Run" SET "status" = :run_status::"RunStatus", "waitReason" = :wait_reason::"WaitReason", "updatedAt" = statement_timestamp()
  FROM s WHERE "Run".id = s."runId" AND "Run"."mainSessionId" = :session_id AND :run_status IS NOT NULL
    AND s.status NOT IN ${FINISHED}
    AND "Run".status NOT IN ${FINISHED}
  RETURNING "Run".id
)
SELECT (SELECT count(*) FROM s)::int AS released, s.status, run."teamId",
  run."cancelRequestedAt" IS NOT NULL AS "cancelRequested",
  (EXISTS (SELECT 1 FROM "InboxMessage" i WHERE i."sessionId" = :session_id AND i."consumedAt" IS NULL)
    OR EXISTS (SELECT 1 FROM "WorkspaceRestore" w WHERE w."sessionId" = :session_id AND w."appliedAt" IS NULL)) AS "inboxPending"
FROM "Session" cur JOIN "Run" run ON run.id = cur."runId" LEFT JOIN s ON true
WHERE cur.id = :session_id`,
}).returns<{ released: number; status: SessionStatusValue | null; teamId: string; cancelRequested: boolean; inboxPending: boolean }>();

/** Releases a lease (fenced on owner and version). */
export async function releaseSession(
  db: Queryable,
  lease: { sessionId: string; owner: string; version: number },
  options: ReleaseOptions,
): Promise<ReleaseOutcome> {
  const query = RELEASE_SQL.bind({
    session_id: lease.sessionId,
    owner: lease.owner,
    version: lease.version,
    status: options.status,
    wait_reason: options.waitReason,
    run_status: options.runStatus,
  });
  const row = rowsOf(RELEASE_SQL, await db.query(query))[0];
  if (!row) return { released: false, teamId: null, status: null, cancelRequested: false, inboxPending: false };
  return { released: row.released > 0, teamId: row.teamId, status: row.status, cancelRequested: row.cancelRequested, inboxPending: row.inboxPending };
}

export interface ReconcileCandidate {
  sessionId: string;
  runId: string;
  leaseVersion: number;
  status: SessionStatusValue;
  cancelRequested: boolean;
}

/**
 * Sessions that need a worker but may have no job: running with an expired (or released) lease,
 * idle (never claimed) for longer than `idleMs`, waiting with a cancel request older than
 * `idleMs` and nobody holding them, or waiting for an isolation level unchanged for `idleMs` (its
 * job in the level's queue may have gone with a Redis restart; handing the same wait over again
 * adds nothing while that job is known).
 */
const RECONCILE_SQL = namedQuery({
  name: 'looplane_reconcile_v2',
  params: { idle_ms: param.int, limit: param.int },
  text: `
SELECT s.id AS "sessionId", s."runId", s."leaseVersion", s.status, r."cancelRequestedAt" IS NOT NULL AS "cancelRequested"
FROM "Session" s JOIN "Run" r ON r.id = s."runId"
WHERE (s.status = 'running' AND (s."leaseExpiresAt" IS NULL OR s."leaseExpiresAt" < statement_timestamp()))
   OR (s.status = 'idle' AND s."leaseOwner" IS NULL AND s."createdAt" < statement_timestamp() - :idle_ms * interval '1 millisecond')
   OR (s.status = 'waiting' AND s."leaseOwner" IS NULL AND r."cancelRequestedAt" < statement_timestamp() - :idle_ms * interval '1 millisecond')
   OR (s.status = 'waiting' AND s."waitReason" = 'isolation' AND s."leaseOwner" IS NULL AND s."updatedAt" < statement_timestamp() - :idle_ms * interval '1 millisecond')
ORDER BY s."updatedAt"
LIMIT :limit`,
}).returns<ReconcileCandidate>();

/** Finds up to `limit` sessions the reconciler should re-enqueue. */
export async function findReconcilable(db: Queryable, idleMs: number, limit: number): Promise<ReconcileCandidate[]> {
  return rowsOf(RECONCILE_SQL, await db.query(RECONCILE_SQL.bind({ idle_ms: idleMs, limit })));
}

const FAIL_SQL = namedQuery({
  name: 'looplane_fail_session_v2',
  params: { session_id: param.text, reason: param.text },
  text: `
WITH s AS (
  UPDATE "Session" SET status = 'failed', error = :reason, "finishedAt" = statement_timestamp(), "waitReason" = NULL,
    "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = statement_timestamp()
  WHERE id = :session_id AND status NOT IN ${FINISHED}
  RETURNING "runId"
)
UPDATE "Run" SET status = 'failed', error = :reason, "finishedAt" = statement_timestamp(), "waitReason" = NULL, "updatedAt" = statement_timestamp()
FROM s WHERE "Run".id = s."runId" AND "Run"."mainSessionId" = :session_id AND "Run".status NOT IN ${FINISHED}
RETURNING "Run"."teamId"`,
}).returns<{ teamId: string }>();

/**
 * The last resort for a session no worker can continue (its log cannot be read, every attempt
 * fails the same way): marks it, and its run if it is the main session, failed with the reason,
 * without an event (appending needs a log that folds). Returns the team of a run it failed.
 */
export async function failSession(db: Queryable, sessionId: string, reason: string): Promise<string | null> {
  return rowsOf(FAIL_SQL, await db.query(FAIL_SQL.bind({ session_id: sessionId, reason })))[0]?.teamId ?? null;
}
