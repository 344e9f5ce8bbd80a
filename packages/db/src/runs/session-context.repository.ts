import type { Queryable } from './pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import type { SessionStatusValue, WaitReasonValue } from './lease.repository';

type RunStatusValue = 'queued' | 'running' | 'waiting' | 'paused' | 'succeeded' | 'failed' | 'cancelled';

/** The `ModelEndpoint` columns a worker builds the model port from (the key still sealed). */
export interface EndpointRow {
  id: string;
  kind: 'openai' | 'faux';
  name: string;
  baseUrl: string | null;
  model: string;
  keyCiphertext: string | null;
  inputMicrosPerMTok: number;
  outputMicrosPerMTok: number;
  contextWindow: number;
  maxOutputTokens: number;
  timeoutMs: number;
  maxRetries: number;
  config: unknown;
  /** Changes whenever the row does: a cache key. */
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Everything a worker reads before it claims a session: the session, its run, its endpoint. */
export interface SessionContext {
  sessionId: string;
  runId: string;
  teamId: string;
  agentId: string | null;
  status: SessionStatusValue;
  waitReason: WaitReasonValue | null;
  lastSeq: number;
  /** The fork parent and fork point (a branch's log is the parent's up to `forkSeq`, then its own). */
  parentId: string | null;
  forkSeq: number | null;
  /** The engine run config snapshot as JSON text (validated by the engine when `run.started` is built; the text keys its cache). */
  configJson: string;
  isMain: boolean;
  goal: string;
  runStatus: RunStatusValue;
  runWaitReason: WaitReasonValue | null;
  busyPolicy: string;
  /** `Run.budget` as stored: `{ tokens?, costMicros?, toolCalls?, wallMs?, onExceed }`. */
  budget: { wallMs?: number } & Record<string, unknown>;
  startedAt: Date | null;
  cancelRequestedAt: Date | null;
  cancelledById: string | null;
  /** The run ledger's tool-call limit (null: none, or no ledger). */
  limitCalls: number | null;
  /** The run ledger has a token or cost limit (reservations are then checked one by one). */
  limitedSpend: boolean;
  /** The run is a swarm graph's: spend and calls are pre-authorised on every ledger of the session's path. */
  graphRun: boolean;
  /** The session has inbox messages nobody consumed yet. */
  inboxPending: boolean;
  /** The session has restore requests (`sessions.restore`) nobody applied yet. */
  restorePending: boolean;
  /** `Session.replay`: a replay branch's marker (source session, atEvent, mode, overrides), as stored; null otherwise. */
  replay: unknown;
  /** `Run.workspace` for the run's root session (where its files come from, as stored); null for any other session. */
  workspace: unknown;
  endpoint: EndpointRow | null;
}

// Prisma stores DateTime as UTC in `timestamp(3)` columns: read them back `AT TIME ZONE 'UTC'`.
const CONTEXT_SQL = namedQuery({
  name: 'looplane_session_context_v9',
  params: { session_ids: param.textArray },
  text: `
SELECT s.id AS "sessionId", s."runId", r."teamId", COALESCE(s."agentId", r."agentId") AS "agentId", s.status, s."waitReason",
  s."lastSeq", s."parentId", s."forkSeq", s.config::text AS "configJson", r."mainSessionId" = s.id AS "isMain", COALESCE(s.goal, r.goal) AS goal, r.status AS "runStatus", r."waitReason" AS "runWaitReason",
  r."busyPolicy", r.budget, r."startedAt" AT TIME ZONE 'UTC' AS "startedAt",
  r."cancelRequestedAt" AT TIME ZONE 'UTC' AS "cancelRequestedAt", r."cancelledById", l."limitCalls",
  COALESCE(l."limitTokens" IS NOT NULL OR l."limitCostMicros" IS NOT NULL, false) AS "limitedSpend", r."graphId" IS NOT NULL AS "graphRun",
  EXISTS (SELECT 1 FROM "InboxMessage" i WHERE i."sessionId" = s.id AND i."consumedAt" IS NULL) AS "inboxPending",
  EXISTS (SELECT 1 FROM "WorkspaceRestore" w WHERE w."sessionId" = s.id AND w."appliedAt" IS NULL) AS "restorePending", s.replay,
  CASE WHEN s.id = r."rootSessionId" THEN r.workspace END AS workspace,
  CASE WHEN e.id IS NULL THEN NULL ELSE json_build_object(
    'id', e.id, 'kind', e.kind, 'name', e.name, 'baseUrl', e."baseUrl", 'model', e.model, 'keyCiphertext', e."keyCiphertext",
    'inputMicrosPerMTok', e."inputMicrosPerMTok", 'outputMicrosPerMTok', e."outputMicrosPerMTok", 'contextWindow', e."contextWindow",
    'maxOutputTokens', e."maxOutputTokens", 'timeoutMs', e."timeoutMs", 'maxRetries', e."maxRetries", 'config', e.config,
    'updatedAt', e."updatedAt", 'deletedAt', e."deletedAt") END AS endpoint
FROM "Session" s
JOIN "Run" r ON r.id = s."runId"
LEFT JOIN "ModelEndpoint" e ON e.id = s."endpointId"
LEFT JOIN "BudgetLedger" l ON l."runId" = r.id AND l.scope = 'run' AND l."scopeId" = ''
WHERE s.id = ANY(:session_ids)`,
}).returns<ContextRow>();

/** A row of {@link CONTEXT_SQL}: the endpoint comes back as JSON, its times as text. */
type ContextRow = Omit<SessionContext, 'endpoint'> & {
  endpoint: (Omit<EndpointRow, 'updatedAt' | 'deletedAt'> & { updatedAt: string; deletedAt: string | null }) | null;
};

/** Reads the contexts of many sessions in one round trip (missing sessions are absent from the map). */
export async function loadSessionContexts(db: Queryable, sessionIds: readonly string[]): Promise<Map<string, SessionContext>> {
  const result = await db.query(CONTEXT_SQL.bind({ session_ids: sessionIds }));
  const contexts = new Map<string, SessionContext>();
  for (const row of rowsOf(CONTEXT_SQL, result)) {
    const endpoint = row.endpoint
      ? { ...row.endpoint, updatedAt: new Date(row.endpoint.updatedAt), deletedAt: row.endpoint.deletedAt ? new Date(row.endpoint.deletedAt) : null }
      : null;
    contexts.set(row.sessionId, { ...row, budget: row.budget ?? {}, endpoint });
  }
  return contexts;
}

const PENDING_INBOX_SQL = namedQuery({
  name: 'looplane_inbox_pending_v2',
  params: { session_id: param.text },
  text: `SELECT id, text FROM "InboxMessage" WHERE "sessionId" = :session_id AND "consumedAt" IS NULL ORDER BY "createdAt", id`,
}).returns<{ id: string; text: string }>();

/** A session's unconsumed inbox messages, oldest first. */
export async function pendingInbox(db: Queryable, sessionId: string): Promise<{ id: string; text: string }[]> {
  return rowsOf(PENDING_INBOX_SQL, await db.query(PENDING_INBOX_SQL.bind({ session_id: sessionId })));
}

const CANCEL_REQUEST_SQL = namedQuery({
  name: 'looplane_cancel_request_v2',
  params: { run_id: param.text },
  text: `SELECT "cancelRequestedAt" AT TIME ZONE 'UTC' AS "cancelRequestedAt", "cancelledById" FROM "Run" WHERE id = :run_id AND "cancelRequestedAt" IS NOT NULL`,
}).returns<{ cancelRequestedAt: Date; cancelledById: string | null }>();

/** Who asked to cancel the run, if anyone did. */
export async function cancelRequest(db: Queryable, runId: string): Promise<{ requestedAt: Date; byUserId: string | null } | null> {
  const row = rowsOf(CANCEL_REQUEST_SQL, await db.query(CANCEL_REQUEST_SQL.bind({ run_id: runId })))[0];
  return row ? { requestedAt: row.cancelRequestedAt, byUserId: row.cancelledById } : null;
}
