/**
 * The flush statement: one round trip that fences the lease, allocates per-run event numbers,
 * inserts every buffered event, applies the buffered ledger changes and inbox consumption, and
 * keeps the projection columns in step. Parameters:
 *
 *  $1 session id      $2 lease owner     $3 lease version   $4 afterSeq        $5 event count
 *  $6 events (jsonb array of { t: type, v: version, p: payload, a: ISO time })  $7 lease TTL (ms)
 *  $8 terminal status or null   $9 result   $10 error   $11 run.started among the events
 *  $12 tokens charged   $13 micro-dollars charged   $14 tool starts
 *  $15 inbox rows consumed (jsonb array of { id, seq })
 *  $16 ledger change (jsonb { rt, rc, st, sc, calls, entries: [{ kind, tokens, costMicros, calls, reservation }] } or null)
 *  $17 reservations were granted locally: refuse the flush if the run ledger has a limit by now
 *
 * Lock order: the Session row (the fence), then the Run row (the event counter), then the ledger.
 * Every writer takes them in that order, so sessions of one run never deadlock, and because the
 * Run row stays locked until commit, event numbers become visible in increasing order (an SSE
 * reader following `eventNo > cursor` never skips one that commits later).
 *
 * The lease is extended only when less than half of it is left, so most flushes leave the indexed
 * `leaseExpiresAt` alone and Postgres can update the row in place (HOT).
 */
const finishing = `$8::text IS NOT NULL`;
const mainFinishing = `(${finishing} AND "Run"."mainSessionId" = $1::text)`;

export const FLUSH_SQL = `
WITH s AS (
  UPDATE "Session" SET
    "lastSeq" = $4::int + $5::int,
    "updatedAt" = statement_timestamp(),
    "leaseExpiresAt" = CASE
      WHEN "leaseExpiresAt" < statement_timestamp() + ($7::int / 2) * interval '1 millisecond'
      THEN statement_timestamp() + $7::int * interval '1 millisecond'
      ELSE "leaseExpiresAt" END,
    "status" = COALESCE($8::text::"SessionStatus", "status"),
    "waitReason" = CASE WHEN ${finishing} THEN NULL ELSE "waitReason" END,
    "result" = CASE WHEN ${finishing} THEN $9::text ELSE "result" END,
    "error" = CASE WHEN ${finishing} THEN $10::text ELSE "error" END,
    "finishedAt" = CASE WHEN ${finishing} THEN statement_timestamp() ELSE "finishedAt" END,
    "costMicros" = "costMicros" + $13::bigint
  WHERE id = $1::text AND "leaseOwner" = $2::text AND "leaseVersion" = $3::int
    AND "leaseExpiresAt" > statement_timestamp() AND "lastSeq" = $4::int
    AND (NOT $17::boolean OR NOT EXISTS (
      SELECT 1 FROM "BudgetLedger" b WHERE b."runId" = "Session"."runId" AND b.scope = 'run' AND b."scopeId" = ''
        AND (b."limitTokens" IS NOT NULL OR b."limitCostMicros" IS NOT NULL)))
  RETURNING "runId"
), r AS (
  UPDATE "Run" SET
    "lastEventNo" = "Run"."lastEventNo" + $5::int,
    "spentTokens" = "Run"."spentTokens" + $12::bigint,
    "spentCostMicros" = "Run"."spentCostMicros" + $13::bigint,
    "toolCalls" = "Run"."toolCalls" + $14::int,
    "startedAt" = CASE WHEN $11::boolean THEN COALESCE("Run"."startedAt", statement_timestamp()) ELSE "Run"."startedAt" END,
    "status" = CASE WHEN ${mainFinishing} THEN $8::text::"RunStatus" ELSE "Run"."status" END,
    "waitReason" = CASE WHEN ${mainFinishing} THEN NULL ELSE "Run"."waitReason" END,
    "result" = CASE WHEN ${mainFinishing} THEN $9::text ELSE "Run"."result" END,
    "error" = CASE WHEN ${mainFinishing} THEN $10::text ELSE "Run"."error" END,
    "finishedAt" = CASE WHEN ${mainFinishing} THEN statement_timestamp() ELSE "Run"."finishedAt" END,
    "updatedAt" = CASE WHEN ${mainFinishing} OR $11::boolean THEN statement_timestamp() ELSE "Run"."updatedAt" END
  FROM s WHERE "Run".id = s."runId"
  RETURNING "Run".id, "Run"."lastEventNo"
), l AS (
  UPDATE "BudgetLedger" b SET
    "reservedTokens" = b."reservedTokens" + ($16::jsonb->>'rt')::bigint,
    "reservedCostMicros" = b."reservedCostMicros" + ($16::jsonb->>'rc')::bigint,
    "spentTokens" = b."spentTokens" + ($16::jsonb->>'st')::bigint,
    "spentCostMicros" = b."spentCostMicros" + ($16::jsonb->>'sc')::bigint,
    "calls" = b.calls + ($16::jsonb->>'calls')::int,
    "updatedAt" = statement_timestamp()
  FROM r WHERE $16::jsonb IS NOT NULL AND b."runId" = r.id AND b.scope = 'run' AND b."scopeId" = ''
  RETURNING b.id
), entries AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", calls, reservation)
  SELECT l.id, x.kind, x.tokens, x."costMicros", x.calls, x.reservation
  FROM l CROSS JOIN jsonb_to_recordset(COALESCE($16::jsonb->'entries', '[]'::jsonb))
    AS x(kind text, tokens bigint, "costMicros" bigint, calls int, reservation text)
), inbox AS (
  UPDATE "InboxMessage" i SET "consumedAt" = statement_timestamp(), "consumedSeq" = (m.item->>'seq')::int
  FROM r, jsonb_array_elements($15::jsonb) AS m(item)
  WHERE i.id = m.item->>'id' AND i."sessionId" = $1::text AND i."consumedAt" IS NULL
)
INSERT INTO "Event" ("runId", "sessionId", "seq", "eventNo", "type", "version", "payload", "createdAt")
SELECT r.id, $1::text, $4::int + e.ord::int, r."lastEventNo" - $5::int + e.ord, e.item->>'t', (e.item->>'v')::int, e.item->'p', (e.item->>'a')::timestamp
FROM r CROSS JOIN jsonb_array_elements($6::jsonb) WITH ORDINALITY AS e(item, ord)
RETURNING "eventNo"`;

/** Why a flush found nothing to write to: the lease, the log position, or a ledger that gained a limit. */
export const FLUSH_DIAGNOSIS_SQL = `
SELECT s."leaseOwner", s."leaseVersion", s."leaseExpiresAt" > statement_timestamp() AS live, s."lastSeq",
  EXISTS (SELECT 1 FROM "BudgetLedger" b WHERE b."runId" = s."runId" AND b.scope = 'run' AND b."scopeId" = ''
    AND (b."limitTokens" IS NOT NULL OR b."limitCostMicros" IS NOT NULL)) AS limited
FROM "Session" s WHERE s.id = $1`;

/** A session's own events up to a seq, in order; `at` exactly as the engine wrote it (UTC, ms). */
export const LOAD_EVENTS_SQL = `
SELECT seq, type, version, payload, to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
FROM "Event" WHERE "sessionId" = $1 AND seq <= $2 ORDER BY seq`;

/** The fork ancestry of a session: parent and fork point. */
export const SESSION_PARENT_SQL = `SELECT "parentId", "forkSeq" FROM "Session" WHERE id = $1`;
