import { namedQuery, param } from '../sql/named-query';

/*
 * The flush, defined once. A lone session's commit is the common case and costs about a fifth
 * less through a statement of plain parameters than through the batch statement with a batch of
 * one (no jsonb record set, no grouping), so there are two statements: FLUSH_SQL for a batch and
 * FLUSH_ONE_SQL for one session. Both are assembled from the parts below, so the fence and what a
 * flush changes cannot drift apart; a part reads the session's fields through `field`, which
 * names them as a column of the batch's input (`i.after_seq`) or as a parameter (`:after_seq`).
 */

/** The fields of one session's flush (flush-batcher.ts writes them; see FLUSH_SQL). */
type FlushField =
  | 'session_id'
  | 'lease_owner'
  | 'lease_version'
  | 'after_seq'
  | 'event_count'
  | 'lease_ms'
  | 'finish_status'
  | 'finish_result'
  | 'finish_error'
  | 'assumes_unlimited'
  | 'spent_cost_micros';
type Field = (name: FlushField) => string;

/** The session's new row state: the log position, the lease (extended, or released by a finish), a finish, the cost. */
const sessionSet = (field: Field) => `
    "lastSeq" = ${field('after_seq')} + ${field('event_count')},
    "updatedAt" = statement_timestamp(),
    -- A finished session needs no lease: the flush that finishes it releases it.
    "leaseOwner" = CASE WHEN ${field('finish_status')} IS NOT NULL THEN NULL ELSE ses."leaseOwner" END,
    "leaseExpiresAt" = CASE
      WHEN ${field('finish_status')} IS NOT NULL THEN NULL
      WHEN ses."leaseExpiresAt" < statement_timestamp() + (${field('lease_ms')} / 2) * interval '1 millisecond'
      THEN statement_timestamp() + ${field('lease_ms')} * interval '1 millisecond'
      ELSE ses."leaseExpiresAt" END,
    "status" = COALESCE(${field('finish_status')}::"SessionStatus", ses."status"),
    "waitReason" = CASE WHEN ${field('finish_status')} IS NOT NULL THEN NULL ELSE ses."waitReason" END,
    "result" = CASE WHEN ${field('finish_status')} IS NOT NULL THEN ${field('finish_result')} ELSE ses."result" END,
    "error" = CASE WHEN ${field('finish_status')} IS NOT NULL THEN ${field('finish_error')} ELSE ses."error" END,
    "finishedAt" = CASE WHEN ${field('finish_status')} IS NOT NULL THEN statement_timestamp() ELSE ses."finishedAt" END,
    "costMicros" = ses."costMicros" + ${field('spent_cost_micros')}`;

/**
 * The fence on the `Session` row `ses`: the lease is this writer's, at this version, and live; the
 * log ends where the buffer starts; and a buffer that granted reservations without a limit finds
 * the run ledger still without one. The liveness test is written so that it needs no index (see
 * FLUSH_SQL).
 */
const sessionFence = (field: Field) => `ses.id = ${field('session_id')}
    AND ses."leaseOwner" = ${field('lease_owner')} AND ses."leaseVersion" = ${field('lease_version')}
    AND ses."leaseExpiresAt" - statement_timestamp() > interval '0' AND ses."lastSeq" = ${field('after_seq')}
    AND (NOT ${field('assumes_unlimited')} OR NOT EXISTS (
      SELECT 1 FROM "BudgetLedger" b WHERE b."runId" = ses."runId" AND b.scope = 'run' AND b."scopeId" = ''
        AND (b."limitTokens" IS NOT NULL OR b."limitCostMicros" IS NOT NULL)))`;

/** The `Run` row `run`'s projection: event numbers, spend, tool calls, start, and a finish (`finishes`: only the main session finishes the run). */
const runSet = (
  value: Record<
    'event_count' | 'spent_tokens' | 'spent_cost_micros' | 'tool_starts' | 'run_started' | 'finish_status' | 'finish_result' | 'finish_error',
    string
  >,
  finishes: string,
) => `
    "lastEventNo" = run."lastEventNo" + ${value.event_count},
    "spentTokens" = run."spentTokens" + ${value.spent_tokens},
    "spentCostMicros" = run."spentCostMicros" + ${value.spent_cost_micros},
    "toolCalls" = run."toolCalls" + ${value.tool_starts},
    "startedAt" = CASE WHEN ${value.run_started} THEN COALESCE(run."startedAt", statement_timestamp()) ELSE run."startedAt" END,
    "status" = CASE WHEN ${finishes} THEN ${value.finish_status}::"RunStatus" ELSE run."status" END,
    "waitReason" = CASE WHEN ${finishes} THEN NULL ELSE run."waitReason" END,
    "result" = CASE WHEN ${finishes} THEN ${value.finish_result} ELSE run."result" END,
    "error" = CASE WHEN ${finishes} THEN ${value.finish_error} ELSE run."error" END,
    "finishedAt" = CASE WHEN ${finishes} THEN statement_timestamp() ELSE run."finishedAt" END,
    -- Only a finish moves "updatedAt" (indexed): the admission that made the run running moved it
    -- a moment before run.started, and leaving it alone keeps every other flush an in-place update.
    "updatedAt" = CASE WHEN ${finishes} THEN statement_timestamp() ELSE run."updatedAt" END`;

/** The run ledger `b`'s change. */
const ledgerSet = (value: Record<'reserved_tokens' | 'reserved_cost_micros' | 'spent_tokens' | 'spent_cost_micros' | 'calls', string>) => `
    "reservedTokens" = b."reservedTokens" + ${value.reserved_tokens},
    "reservedCostMicros" = b."reservedCostMicros" + ${value.reserved_cost_micros},
    "spentTokens" = b."spentTokens" + ${value.spent_tokens},
    "spentCostMicros" = b."spentCostMicros" + ${value.spent_cost_micros},
    "calls" = b.calls + ${value.calls},
    "updatedAt" = statement_timestamp()`;

const RUN_LEDGER = `b.scope = 'run' AND b."scopeId" = ''`;
const ENTRY_COLUMNS = `INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", calls, reservation)
  SELECT l.id, x.kind, x.tokens, x."costMicros", x.calls, x.reservation`;
const ENTRY_RECORD = `x(kind text, tokens bigint, "costMicros" bigint, calls int, reservation text)`;
const EVENT_COLUMNS = `INSERT INTO "Event" ("runId", "sessionId", "seq", "eventNo", "type", "version", "payload", "createdAt")`;
/** An event's columns from its element `e` of the `events` array (`e.ord`: its place, from 1). */
const EVENT_FIELDS = `e.item->>'type', (e.item->>'version')::int, e.item->'payload', (e.item->>'at')::timestamp`;
const INBOX_SET = `"consumedAt" = statement_timestamp(), "consumedSeq" = (m.item->>'seq')::int`;

/**
 * The audit rows the flush carries (`:audit_rows`, chained onto `:audit_expected`), appended by
 * audit/audit-chain.functions.sql when `written` holds (every session of the statement passed its
 * fence). The ledger and inbox updates and the ledger check are its third argument so that they
 * run, and take their row locks, before the chain lock: the lock order of every chain writer (and
 * a refused reservation fails the statement before the chain is locked). Returns how many rows
 * were appended (0: none; the worker then appends them through the locked path).
 */
/**
 * A ledger change that reserves without having checked (`checks_limits`: the worker granted it
 * on room it knew of) is checked here, on the updated row under its lock: over a limit, the
 * statement fails (SQLSTATE LL001, runs/ledger-check.functions.sql) and writes nothing, and
 * the worker writes what came before the reservation and continues from the log.
 */
const OVER_LIMIT = `(l."limitTokens" IS NOT NULL AND l."reservedTokens" + l."spentTokens" > l."limitTokens")
    OR (l."limitCostMicros" IS NOT NULL AND l."reservedCostMicros" + l."spentCostMicros" > l."limitCostMicros")`;

const auditCall = (written: string) =>
  `looplane_audit_append_chained(CASE WHEN ${written} THEN :audit_rows END, :audit_expected,
    (SELECT count(*) FROM ledger_update) + (SELECT count(*) FROM inbox_update) + (SELECT count(*) FROM over_limit))`;

/**
 * The flush statement: one round trip that writes the buffers of many sessions (a group commit).
 * For each session it fences the lease, allocates per-run event numbers, inserts the events,
 * applies the ledger change and inbox consumption, and keeps the projection columns in step. A
 * session whose fence fails writes nothing; the others are unaffected. `:sessions` is a jsonb
 * array of records, one per session (flush-batcher.ts writes them):
 *
 *   position: its place in the batch    session_id, lease_owner, lease_version: the lease
 *   after_seq: the seq the session's log ends at    event_count, events: [{ type, version, payload, at }]
 *   lease_ms: lease length    finish_status, finish_result, finish_error: when the events finish the session
 *   run_started: run.started among the events    spent_tokens, spent_cost_micros: charged    tool_starts
 *   inbox: [{ id, seq }] rows consumed    ledger: { reserved_tokens, reserved_cost_micros, spent_tokens,
 *   spent_cost_micros, calls, entries[] } the run ledger's change
 *   assumes_unlimited: reservations were granted locally: refuse if the run ledger has a limit by now
 *
 * Lock order: Session rows (each leased to one writer, so batches rarely contend on them; a
 * frozen worker's batch and the new holder's can, and FlushBatcher retries each session alone), then
 * Run rows in id order (`locked`), then ledgers: every writer takes them in that order, so
 * batches and single writers never deadlock. Because the Run row stays locked until commit, event
 * numbers become visible in increasing order (an SSE reader following `eventNo > cursor` never
 * skips one that commits later). The lease is extended only when less than half of it is left, so
 * most flushes leave the indexed `leaseExpiresAt` alone and Postgres updates the row in place.
 *
 * Returns one row per session written: its `position` and the last event number it got.
 */
export const FLUSH_SQL = namedQuery({
  name: 'looplane_flush_v4',
  params: { sessions: param.jsonb, audit_rows: param.nullableJsonb, audit_expected: param.nullableJsonb },
  text: `
WITH input AS (
  SELECT * FROM jsonb_to_recordset(:sessions) AS x(
    position int, session_id text, lease_owner text, lease_version int, after_seq int, event_count int, lease_ms int,
    finish_status text, finish_result text, finish_error text, run_started boolean, spent_tokens bigint,
    spent_cost_micros bigint, tool_starts int, assumes_unlimited boolean, checks_limits boolean, events jsonb, inbox jsonb, ledger jsonb)
), fenced AS (
  UPDATE "Session" ses SET${sessionSet((name) => `i.${name}`)}
  FROM input i
  -- The batch's rows by primary key (the id list is an index condition), never a scan: a plan
  -- made while few leases were live would otherwise walk every live session (the leaseExpiresAt
  -- index) or the whole table on each flush. So the liveness test is written to need no index.
  WHERE ses.id = ANY (ARRAY(SELECT session_id FROM input)) AND ${sessionFence((name) => `i.${name}`)}
  RETURNING ses.id AS session_id, ses."runId" AS run_id
), written AS (
  SELECT i.*, f.run_id FROM fenced f JOIN input i ON i.session_id = f.session_id
), locked AS (
  -- The Run rows, locked in id order. Locked rows read as their latest committed version, so
  -- "last_event_no" is the run's last event number that this statement's Run update adds to.
  SELECT w.position, w.session_id, w.run_id, w.after_seq, w.event_count, w.spent_tokens, w.spent_cost_micros,
    w.tool_starts, w.run_started, w.events, w.inbox, w.ledger, w.checks_limits, w.finish_status, w.finish_result, w.finish_error,
    run."lastEventNo" AS last_event_no,
    -- Only the run's main session finishes the run.
    w.finish_status IS NOT NULL AND w.session_id = run."mainSessionId" AS finishes_run
  FROM written w JOIN "Run" run ON run.id = w.run_id
  ORDER BY w.run_id, w.position FOR UPDATE OF run
), per_run AS (
  SELECT run_id, sum(event_count)::int AS event_count, sum(spent_tokens) AS spent_tokens,
    sum(spent_cost_micros) AS spent_cost_micros, sum(tool_starts)::int AS tool_starts, bool_or(run_started) AS run_started,
    (array_agg(finish_status) FILTER (WHERE finishes_run))[1] AS finish_status,
    (array_agg(finish_result) FILTER (WHERE finishes_run))[1] AS finish_result,
    (array_agg(finish_error) FILTER (WHERE finishes_run))[1] AS finish_error
  FROM locked GROUP BY run_id
), run_update AS (
  UPDATE "Run" run SET${runSet(
    {
      event_count: 'pr.event_count',
      spent_tokens: 'pr.spent_tokens',
      spent_cost_micros: 'pr.spent_cost_micros',
      tool_starts: 'pr.tool_starts',
      run_started: 'pr.run_started',
      finish_status: 'pr.finish_status',
      finish_result: 'pr.finish_result',
      finish_error: 'pr.finish_error',
    },
    'pr.finish_status IS NOT NULL',
  )}
  FROM per_run pr
  WHERE run.id = pr.run_id
), bases AS (
  SELECT position, session_id, run_id, after_seq, event_count, events, inbox,
    last_event_no + COALESCE(sum(event_count) OVER (
      PARTITION BY run_id ORDER BY position ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS base_event_no
  FROM locked
), ledger_update AS (
  -- After the Run rows (read from "locked"): the lock order.
  UPDATE "BudgetLedger" b SET${ledgerSet({
    reserved_tokens: 'c.reserved_tokens',
    reserved_cost_micros: 'c.reserved_cost_micros',
    spent_tokens: 'c.spent_tokens',
    spent_cost_micros: 'c.spent_cost_micros',
    calls: 'c.calls',
  })}
  FROM (
    SELECT o.run_id, sum((o.ledger->>'reserved_tokens')::bigint) AS reserved_tokens,
      sum((o.ledger->>'reserved_cost_micros')::bigint) AS reserved_cost_micros,
      sum((o.ledger->>'spent_tokens')::bigint) AS spent_tokens, sum((o.ledger->>'spent_cost_micros')::bigint) AS spent_cost_micros,
      sum((o.ledger->>'calls')::int)::int AS calls, jsonb_agg(o.ledger->'entries') AS entries,
      bool_or(o.checks_limits) AS checks_limits
    FROM locked o WHERE o.ledger IS NOT NULL GROUP BY o.run_id
  ) c
  WHERE b."runId" = c.run_id AND ${RUN_LEDGER}
  RETURNING b.id, b."runId", c.entries, c.checks_limits, b."limitTokens", b."reservedTokens", b."spentTokens",
    b."limitCostMicros", b."reservedCostMicros", b."spentCostMicros"
), over_limit AS (
  SELECT looplane_ledger_over_limit(l."runId") FROM ledger_update l WHERE l.checks_limits AND (${OVER_LIMIT})
), entry_insert AS (
  ${ENTRY_COLUMNS}
  FROM ledger_update l CROSS JOIN jsonb_array_elements(l.entries) AS per_session(list)
  CROSS JOIN jsonb_to_recordset(per_session.list) AS ${ENTRY_RECORD}
), inbox_update AS (
  UPDATE "InboxMessage" im SET ${INBOX_SET}
  FROM bases o CROSS JOIN jsonb_array_elements(COALESCE(o.inbox, '[]'::jsonb)) AS m(item)
  WHERE im.id = m.item->>'id' AND im."sessionId" = o.session_id AND im."consumedAt" IS NULL
  RETURNING im.id
), audit AS MATERIALIZED (
  SELECT ${auditCall('(SELECT count(*) FROM fenced) = jsonb_array_length(:sessions)')} AS appended
), event_insert AS (
  ${EVENT_COLUMNS}
  SELECT b.run_id, b.session_id, b.after_seq + e.ord::int, b.base_event_no + e.ord, ${EVENT_FIELDS}
  FROM bases b CROSS JOIN jsonb_array_elements(b.events) WITH ORDINALITY AS e(item, ord)
)
SELECT position, CASE WHEN event_count > 0 THEN base_event_no + event_count ELSE 0 END AS last_event_no,
  (SELECT appended FROM audit) AS audited
FROM bases`,
}).returns<{ position: number; last_event_no: string | number; audited: number }>();

/**
 * The flush for one session, as plain parameters (the fields of one FLUSH_SQL record; `events`,
 * `inbox` and `ledger` are JSON text), from the same parts. Returns one row: whether the fence
 * held, and the last event number.
 */
export const FLUSH_ONE_SQL = namedQuery({
  name: 'looplane_flush_one_v2',
  params: {
    session_id: param.text,
    lease_owner: param.text,
    lease_version: param.int,
    after_seq: param.int,
    event_count: param.int,
    events: param.jsonb,
    lease_ms: param.int,
    finish_status: param.nullableText,
    finish_result: param.nullableText,
    finish_error: param.nullableText,
    run_started: param.boolean,
    spent_tokens: param.bigint,
    spent_cost_micros: param.bigint,
    tool_starts: param.int,
    inbox: param.jsonb,
    ledger: param.nullableJsonb,
    assumes_unlimited: param.boolean,
    checks_limits: param.boolean,
    audit_rows: param.nullableJsonb,
    audit_expected: param.nullableJsonb,
  },
  text: `
WITH fenced AS (
  UPDATE "Session" ses SET${sessionSet((name) => `:${name}`)}
  WHERE ${sessionFence((name) => `:${name}`)}
  RETURNING ses."runId" AS run_id
), run_update AS (
  UPDATE "Run" run SET${runSet(
    {
      event_count: ':event_count',
      spent_tokens: ':spent_tokens',
      spent_cost_micros: ':spent_cost_micros',
      tool_starts: ':tool_starts',
      run_started: ':run_started',
      finish_status: ':finish_status',
      finish_result: ':finish_result',
      finish_error: ':finish_error',
    },
    ':finish_status IS NOT NULL AND run."mainSessionId" = :session_id',
  )}
  FROM fenced WHERE run.id = fenced.run_id
  RETURNING run.id, run."lastEventNo"
), ledger_update AS (
  UPDATE "BudgetLedger" b SET${ledgerSet({
    reserved_tokens: `(:ledger->>'reserved_tokens')::bigint`,
    reserved_cost_micros: `(:ledger->>'reserved_cost_micros')::bigint`,
    spent_tokens: `(:ledger->>'spent_tokens')::bigint`,
    spent_cost_micros: `(:ledger->>'spent_cost_micros')::bigint`,
    calls: `(:ledger->>'calls')::int`,
  })}
  FROM run_update r WHERE :ledger IS NOT NULL AND b."runId" = r.id AND ${RUN_LEDGER}
  RETURNING b.id, b."runId", b."limitTokens", b."reservedTokens", b."spentTokens", b."limitCostMicros", b."reservedCostMicros", b."spentCostMicros"
), over_limit AS (
  SELECT looplane_ledger_over_limit(l."runId") FROM ledger_update l WHERE :checks_limits AND (${OVER_LIMIT})
), entry_insert AS (
  ${ENTRY_COLUMNS}
  FROM ledger_update l CROSS JOIN jsonb_to_recordset(:ledger->'entries') AS ${ENTRY_RECORD}
), inbox_update AS (
  UPDATE "InboxMessage" im SET ${INBOX_SET}
  FROM run_update r, jsonb_array_elements(:inbox) AS m(item)
  WHERE im.id = m.item->>'id' AND im."sessionId" = :session_id AND im."consumedAt" IS NULL
  RETURNING im.id
), event_insert AS (
  ${EVENT_COLUMNS}
  SELECT r.id, :session_id, :after_seq + e.ord::int, r."lastEventNo" - :event_count + e.ord, ${EVENT_FIELDS}
  FROM run_update r CROSS JOIN jsonb_array_elements(:events) WITH ORDINALITY AS e(item, ord)
  RETURNING "eventNo"
)
SELECT (SELECT count(*) FROM fenced)::int AS fenced, (SELECT max("eventNo") FROM event_insert) AS last_event_no,
  ${auditCall('EXISTS (SELECT 1 FROM run_update)')} AS audited`,
}).returns<{ fenced: number; last_event_no: string | null; audited: number }>();

/** Why a flush found nothing to write to: the lease, the log position, or a ledger that gained a limit. */
export const FLUSH_DIAGNOSIS_SQL = namedQuery({
  name: 'looplane_flush_diagnosis_v1',
  params: { session_id: param.text },
  text: `
SELECT s."leaseOwner", s."leaseVersion", s."leaseExpiresAt" > statement_timestamp() AS live, s."lastSeq",
  EXISTS (SELECT 1 FROM "BudgetLedger" b WHERE b."runId" = s."runId" AND b.scope = 'run' AND b."scopeId" = ''
    AND (b."limitTokens" IS NOT NULL OR b."limitCostMicros" IS NOT NULL)) AS limited
FROM "Session" s WHERE s.id = :session_id`,
}).returns<{ leaseOwner: string | null; leaseVersion: number; live: boolean | null; lastSeq: number; limited: boolean }>();

/** Where a session's log ends (for a flush of a buffer without events). */
export const LAST_SEQ_SQL = namedQuery({
  name: 'looplane_last_seq_v1',
  params: { session_id: param.text },
  text: `SELECT "lastSeq" FROM "Session" WHERE id = :session_id`,
}).returns<{ lastSeq: number }>();

/** A session's own events up to a seq, in order; `at` exactly as the engine wrote it (UTC, ms). */
export const LOAD_EVENTS_SQL = namedQuery({
  name: 'looplane_load_events_v1',
  params: { session_id: param.text, up_to: param.int },
  text: `
SELECT seq, type, version, payload, to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
FROM "Event" WHERE "sessionId" = :session_id AND seq <= :up_to ORDER BY seq`,
}).returns<{ seq: number; type: string; version: number; payload: unknown; at: string }>();

/** The fork ancestry of a session: parent and fork point. */
export const SESSION_PARENT_SQL = namedQuery({
  name: 'looplane_session_parent_v1',
  params: { session_id: param.text },
  text: `SELECT "parentId", "forkSeq" FROM "Session" WHERE id = :session_id`,
}).returns<{ parentId: string | null; forkSeq: number | null }>();
