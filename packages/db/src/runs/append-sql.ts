/**
 * The flush statement: one round trip that writes the buffers of many sessions (a group commit).
 * For each session it fences the lease, allocates per-run event numbers, inserts the events,
 * applies the ledger change and inbox consumption, and keeps the projection columns in step. A
 * session whose fence fails writes nothing; the others are unaffected. `$1` is a jsonb array of:
 *
 *   k: position        sid, owner, ver: the lease      after: the seq the session's log ends at
 *   n: event count     ev: [{ t: type, v: version, p: payload, a: ISO time }]   ttl: lease ms
 *   fin, res, err: terminal status / result / error when the events finish the session
 *   started: run.started among the events   st, sc: tokens / micro-dollars charged   tc: tool starts
 *   inbox: [{ id, seq }] rows consumed      led: { rt, rc, st, sc, calls, entries[] } ledger change
 *   unl: reservations were granted locally: refuse if the run ledger has a limit by now
 *
 * Lock order: Session rows (each leased to one writer, so batches rarely contend on them; a
 * frozen worker's batch and the new holder's can, and FlushBatcher retries each session alone), then
 * Run rows in id order (`locked`), then ledgers: every writer takes them in that order, so
 * batches and single writers never deadlock. Because the Run row stays locked until commit, event
 * numbers become visible in increasing order (an SSE reader following `eventNo > cursor` never
 * skips one that commits later). The lease is extended only when less than half of it is left, so
 * most flushes leave the indexed `leaseExpiresAt` alone and Postgres updates the row in place.
 *
 * Returns one row per session written: its position `k` and the last event number it got.
 */
export const FLUSH_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    k int, sid text, owner text, ver int, after int, n int, ttl int, fin text, res text, err text,
    started boolean, st bigint, sc bigint, tc int, unl boolean, ev jsonb, inbox jsonb, led jsonb)
), s AS (
  UPDATE "Session" ses SET
    "lastSeq" = i.after + i.n,
    "updatedAt" = statement_timestamp(),
    -- A finished session needs no lease: the flush that finishes it releases it.
    "leaseOwner" = CASE WHEN i.fin IS NOT NULL THEN NULL ELSE ses."leaseOwner" END,
    "leaseExpiresAt" = CASE
      WHEN i.fin IS NOT NULL THEN NULL
      WHEN ses."leaseExpiresAt" < statement_timestamp() + (i.ttl / 2) * interval '1 millisecond'
      THEN statement_timestamp() + i.ttl * interval '1 millisecond'
      ELSE ses."leaseExpiresAt" END,
    "status" = COALESCE(i.fin::"SessionStatus", ses."status"),
    "waitReason" = CASE WHEN i.fin IS NOT NULL THEN NULL ELSE ses."waitReason" END,
    "result" = CASE WHEN i.fin IS NOT NULL THEN i.res ELSE ses."result" END,
    "error" = CASE WHEN i.fin IS NOT NULL THEN i.err ELSE ses."error" END,
    "finishedAt" = CASE WHEN i.fin IS NOT NULL THEN statement_timestamp() ELSE ses."finishedAt" END,
    "costMicros" = ses."costMicros" + i.sc
  FROM input i
  -- The batch's rows by primary key (the id list is an index condition), never a scan: a plan
  -- made while few leases were live would otherwise walk every live session (the leaseExpiresAt
  -- index) or the whole table on each flush. So the liveness test is written to need no index.
  WHERE ses.id = ANY (ARRAY(SELECT sid FROM input)) AND ses.id = i.sid
    AND ses."leaseOwner" = i.owner AND ses."leaseVersion" = i.ver
    AND ses."leaseExpiresAt" - statement_timestamp() > interval '0' AND ses."lastSeq" = i.after
    AND (NOT i.unl OR NOT EXISTS (
      SELECT 1 FROM "BudgetLedger" b WHERE b."runId" = ses."runId" AND b.scope = 'run' AND b."scopeId" = ''
        AND (b."limitTokens" IS NOT NULL OR b."limitCostMicros" IS NOT NULL)))
  RETURNING ses.id AS sid, ses."runId" AS rid
), ok AS (
  SELECT i.*, s.rid FROM s JOIN input i ON i.sid = s.sid
), locked AS (
  -- The Run rows, locked in id order. Locked rows read as their latest committed version, so
  -- "prev" is the run's last event number that this statement's Run update adds to.
  SELECT o.k, o.sid, o.rid, o.after, o.n, o.st, o.sc, o.tc, o.started, o.ev, o.inbox, o.led, o.fin, o.res, o.err,
    run."lastEventNo" AS prev,
    -- Only the run's main session finishes the run.
    o.fin IS NOT NULL AND o.sid = run."mainSessionId" AS finishes
  FROM ok o JOIN "Run" run ON run.id = o.rid
  ORDER BY o.rid, o.k FOR UPDATE OF run
), per_run AS (
  SELECT rid, sum(n)::int AS total, sum(st) AS st, sum(sc) AS sc, sum(tc)::int AS tc, bool_or(started) AS started,
    (array_agg(fin) FILTER (WHERE finishes))[1] AS fin, (array_agg(res) FILTER (WHERE finishes))[1] AS res,
    (array_agg(err) FILTER (WHERE finishes))[1] AS err
  FROM locked GROUP BY rid
), r AS (
  UPDATE "Run" run SET
    "lastEventNo" = run."lastEventNo" + pr.total,
    "spentTokens" = run."spentTokens" + pr.st,
    "spentCostMicros" = run."spentCostMicros" + pr.sc,
    "toolCalls" = run."toolCalls" + pr.tc,
    "startedAt" = CASE WHEN pr.started THEN COALESCE(run."startedAt", statement_timestamp()) ELSE run."startedAt" END,
    "status" = COALESCE(pr.fin::"RunStatus", run."status"),
    "waitReason" = CASE WHEN pr.fin IS NOT NULL THEN NULL ELSE run."waitReason" END,
    "result" = CASE WHEN pr.fin IS NOT NULL THEN pr.res ELSE run."result" END,
    "error" = CASE WHEN pr.fin IS NOT NULL THEN pr.err ELSE run."error" END,
    "finishedAt" = CASE WHEN pr.fin IS NOT NULL THEN statement_timestamp() ELSE run."finishedAt" END,
    -- Only a finish moves "updatedAt" (indexed): the admission that made the run running moved it
    -- a moment before run.started, and leaving it alone keeps every other flush an in-place update.
    "updatedAt" = CASE WHEN pr.fin IS NOT NULL THEN statement_timestamp() ELSE run."updatedAt" END
  FROM per_run pr
  WHERE run.id = pr.rid
), bases AS (
  SELECT k, sid, rid, after, n, ev, inbox,
    prev + COALESCE(sum(n) OVER (PARTITION BY rid ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS base
  FROM locked
), l AS (
  -- After the Run rows (read from "locked"): the lock order.
  UPDATE "BudgetLedger" b SET
    "reservedTokens" = b."reservedTokens" + c.rt,
    "reservedCostMicros" = b."reservedCostMicros" + c.rc,
    "spentTokens" = b."spentTokens" + c.st,
    "spentCostMicros" = b."spentCostMicros" + c.sc,
    "calls" = b.calls + c.calls,
    "updatedAt" = statement_timestamp()
  FROM (
    SELECT o.rid, sum((o.led->>'rt')::bigint) AS rt, sum((o.led->>'rc')::bigint) AS rc, sum((o.led->>'st')::bigint) AS st,
      sum((o.led->>'sc')::bigint) AS sc, sum((o.led->>'calls')::int)::int AS calls, jsonb_agg(o.led->'entries') AS entries
    FROM locked o WHERE o.led IS NOT NULL GROUP BY o.rid
  ) c
  WHERE b."runId" = c.rid AND b.scope = 'run' AND b."scopeId" = ''
  RETURNING b.id, c.entries
), entries AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", calls, reservation)
  SELECT l.id, x.kind, x.tokens, x."costMicros", x.calls, x.reservation
  FROM l CROSS JOIN jsonb_array_elements(l.entries) AS per_session(list)
  CROSS JOIN jsonb_to_recordset(per_session.list) AS x(kind text, tokens bigint, "costMicros" bigint, calls int, reservation text)
), inbox AS (
  UPDATE "InboxMessage" im SET "consumedAt" = statement_timestamp(), "consumedSeq" = (m.item->>'seq')::int
  FROM bases o CROSS JOIN jsonb_array_elements(COALESCE(o.inbox, '[]'::jsonb)) AS m(item)
  WHERE im.id = m.item->>'id' AND im."sessionId" = o.sid AND im."consumedAt" IS NULL
), ev AS (
  INSERT INTO "Event" ("runId", "sessionId", "seq", "eventNo", "type", "version", "payload", "createdAt")
  SELECT b.rid, b.sid, b.after + e.ord::int, b.base + e.ord, e.item->>'t', (e.item->>'v')::int, e.item->'p', (e.item->>'a')::timestamp
  FROM bases b CROSS JOIN jsonb_array_elements(b.ev) WITH ORDINALITY AS e(item, ord)
)
SELECT k, CASE WHEN n > 0 THEN base + n ELSE 0 END AS last FROM bases`;

/**
 * The same flush for one session, as plain parameters: about half the cost of the batch statement
 * for a batch of one (no jsonb record set, no grouping), which is what a lone session pays per
 * commit. Parameters: $1 sid  $2 owner  $3 ver  $4 after  $5 n  $6 events  $7 ttl  $8 fin  $9 res
 * $10 err  $11 started  $12 st  $13 sc  $14 tc  $15 inbox  $16 led  $17 unl (as in FLUSH_SQL).
 * Returns one row: whether the fence held, and the last event number.
 */
export const FLUSH_ONE_SQL = `
WITH s AS (
  UPDATE "Session" SET
    "lastSeq" = $4::int + $5::int,
    "updatedAt" = statement_timestamp(),
    "leaseOwner" = CASE WHEN $8::text IS NOT NULL THEN NULL ELSE "leaseOwner" END,
    "leaseExpiresAt" = CASE
      WHEN $8::text IS NOT NULL THEN NULL
      WHEN "leaseExpiresAt" < statement_timestamp() + ($7::int / 2) * interval '1 millisecond'
      THEN statement_timestamp() + $7::int * interval '1 millisecond'
      ELSE "leaseExpiresAt" END,
    "status" = COALESCE($8::text::"SessionStatus", "status"),
    "waitReason" = CASE WHEN $8::text IS NOT NULL THEN NULL ELSE "waitReason" END,
    "result" = CASE WHEN $8::text IS NOT NULL THEN $9::text ELSE "result" END,
    "error" = CASE WHEN $8::text IS NOT NULL THEN $10::text ELSE "error" END,
    "finishedAt" = CASE WHEN $8::text IS NOT NULL THEN statement_timestamp() ELSE "finishedAt" END,
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
    "status" = CASE WHEN $8::text IS NOT NULL AND "Run"."mainSessionId" = $1::text THEN $8::text::"RunStatus" ELSE "Run"."status" END,
    "waitReason" = CASE WHEN $8::text IS NOT NULL AND "Run"."mainSessionId" = $1::text THEN NULL ELSE "Run"."waitReason" END,
    "result" = CASE WHEN $8::text IS NOT NULL AND "Run"."mainSessionId" = $1::text THEN $9::text ELSE "Run"."result" END,
    "error" = CASE WHEN $8::text IS NOT NULL AND "Run"."mainSessionId" = $1::text THEN $10::text ELSE "Run"."error" END,
    "finishedAt" = CASE WHEN $8::text IS NOT NULL AND "Run"."mainSessionId" = $1::text THEN statement_timestamp() ELSE "Run"."finishedAt" END,
    "updatedAt" = CASE WHEN $8::text IS NOT NULL AND "Run"."mainSessionId" = $1::text THEN statement_timestamp() ELSE "Run"."updatedAt" END
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
  FROM l CROSS JOIN jsonb_to_recordset($16::jsonb->'entries') AS x(kind text, tokens bigint, "costMicros" bigint, calls int, reservation text)
), inbox AS (
  UPDATE "InboxMessage" i SET "consumedAt" = statement_timestamp(), "consumedSeq" = (m.item->>'seq')::int
  FROM r, jsonb_array_elements($15::jsonb) AS m(item)
  WHERE i.id = m.item->>'id' AND i."sessionId" = $1::text AND i."consumedAt" IS NULL
), ev AS (
  INSERT INTO "Event" ("runId", "sessionId", "seq", "eventNo", "type", "version", "payload", "createdAt")
  SELECT r.id, $1::text, $4::int + e.ord::int, r."lastEventNo" - $5::int + e.ord, e.item->>'t', (e.item->>'v')::int, e.item->'p', (e.item->>'a')::timestamp
  FROM r CROSS JOIN jsonb_array_elements($6::jsonb) WITH ORDINALITY AS e(item, ord)
  RETURNING "eventNo"
)
SELECT (SELECT count(*) FROM s)::int AS ok, (SELECT max("eventNo") FROM ev) AS last`;

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
