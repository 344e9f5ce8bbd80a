import { LEDGER_FENCE_CTES } from '../runs/budget-ledger';

/**
 * SQL of the path ledger: every statement locks in the order appends do (the session's row as
 * the lease fence, then the run row, then the path's ledgers by id), so sessions of one run never
 * deadlock with each other or with a flush.
 *   $1 session  $2 owner  $3 version  $4 run  $5 key  $6 edge ids of the path
 */
const PATH_HEAD = `${LEDGER_FENCE_CTES}, led AS (
  SELECT * FROM "BudgetLedger" WHERE "runId" = $4::text AND EXISTS (SELECT 1 FROM run_row)
    AND ((scope = 'run' AND "scopeId" = '') OR (scope = 'edge' AND "scopeId" = ANY($6::text[])))
  ORDER BY id FOR UPDATE
)`;

/** The edges crossed from the root to a session (its ancestors' `edgeId`s; forks add none). */
export const PATH_EDGES_SQL = `
WITH RECURSIVE chain AS (
  SELECT id, "parentId", "edgeId", 0 AS depth FROM "Session" WHERE id = $1::text
  UNION ALL
  SELECT s.id, s."parentId", s."edgeId", c.depth + 1 FROM "Session" s JOIN chain c ON s.id = c."parentId" WHERE c.depth < 64
)
SELECT COALESCE(array_agg("edgeId") FILTER (WHERE "edgeId" IS NOT NULL), '{}') AS edges FROM chain`;

/**
 * Reserve on every ledger of the path, all or nothing: one UPDATE that changes every row only if
 * each of them stays within every limit with the amount added; one `reserve` entry per ledger. A
 * key already reserved is granted again without reserving twice (the engine repeats the last call
 * after a crash).  $7 tokens  $8 micro-dollars
 */
export const PATH_RESERVE_SQL = `${PATH_HEAD}, prior AS (
  SELECT 1 FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM led) AND e.kind = 'reserve' AND e.reservation = $5::text LIMIT 1
), fits AS (
  SELECT COALESCE(bool_and(
    (l."limitTokens" IS NULL OR l."reservedTokens" + l."spentTokens" + $7::bigint <= l."limitTokens")
    AND (l."limitCostMicros" IS NULL OR l."reservedCostMicros" + l."spentCostMicros" + $8::bigint <= l."limitCostMicros")), true) AS ok
  FROM led l
), upd AS (
  UPDATE "BudgetLedger" b SET
    "reservedTokens" = b."reservedTokens" + $7::bigint,
    "reservedCostMicros" = b."reservedCostMicros" + $8::bigint,
    "updatedAt" = statement_timestamp()
  FROM led WHERE b.id = led.id AND NOT EXISTS (SELECT 1 FROM prior) AND (SELECT ok FROM fits)
  RETURNING b.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", reservation) SELECT id, 'reserve', $7::bigint, $8::bigint, $5::text FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM prior) AS prior, (SELECT ok FROM fits) AS granted,
  COALESCE((SELECT json_agg(json_build_object('scope', scope, 'scopeId', "scopeId", 'limitTokens', "limitTokens", 'limitCostMicros', "limitCostMicros",
    'reservedTokens', "reservedTokens", 'reservedCostMicros', "reservedCostMicros", 'spentTokens', "spentTokens", 'spentCostMicros', "spentCostMicros")) FROM led), '[]') AS ledgers`;

/**
 * Settle on every ledger of the path: charge what was spent, release the rest of the reservation
 * (one `charge` and one `release` entry per ledger). Only ledgers holding the key's reservation
 * are touched, so a settle never releases what was not reserved.
 *   $7 reserved tokens  $8 reserved micro-dollars  $9 spent tokens  $10 spent micro-dollars
 */
export const PATH_SETTLE_SQL = `${PATH_HEAD}, held AS (
  SELECT DISTINCT e."ledgerId" AS id FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM led) AND e.kind = 'reserve' AND e.reservation = $5::text
), done AS (
  SELECT 1 FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM held) AND e.kind = 'charge' AND e.reservation = $5::text LIMIT 1
), upd AS (
  UPDATE "BudgetLedger" b SET
    "reservedTokens" = b."reservedTokens" - $7::bigint,
    "reservedCostMicros" = b."reservedCostMicros" - $8::bigint,
    "spentTokens" = b."spentTokens" + $9::bigint,
    "spentCostMicros" = b."spentCostMicros" + $10::bigint,
    "updatedAt" = statement_timestamp()
  FROM held WHERE b.id = held.id AND NOT EXISTS (SELECT 1 FROM done)
  RETURNING b.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", reservation)
  SELECT id, 'charge', $9::bigint, $10::bigint, $5::text FROM upd
  UNION ALL
  SELECT id, 'release', GREATEST(0, $7::bigint - $9::bigint), GREATEST(0, $8::bigint - $10::bigint), $5::text FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased`;

/** Count one call (a tool call) on every ledger of the path, all or nothing, once per key. */
export const PATH_CALL_SQL = `${PATH_HEAD}, prior AS (
  SELECT 1 FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM led) AND e.kind = 'call' AND e.reservation = $5::text LIMIT 1
), fits AS (
  SELECT COALESCE(bool_and(l."limitCalls" IS NULL OR l.calls + 1 <= l."limitCalls"), true) AS ok FROM led l
), upd AS (
  UPDATE "BudgetLedger" b SET calls = b.calls + 1, "updatedAt" = statement_timestamp()
  FROM led WHERE b.id = led.id AND NOT EXISTS (SELECT 1 FROM prior) AND (SELECT ok FROM fits)
  RETURNING b.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, calls, reservation) SELECT id, 'call', 1, $5::text FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM prior) OR (SELECT ok FROM fits) AS granted,
  (SELECT min("limitCalls") FROM led) AS "limitCalls"`;

/** Room on every ledger of a session's path (null column: unlimited), read without a lease. $1 run  $2 edge ids */
export const PATH_ROOM_SQL = `
SELECT bool_and(
  ("limitTokens" IS NULL OR "limitTokens" - "reservedTokens" - "spentTokens" >= $3::bigint)
  AND ("limitCostMicros" IS NULL OR "limitCostMicros" - "reservedCostMicros" - "spentCostMicros" >= $4::bigint)) AS room
FROM "BudgetLedger" WHERE "runId" = $1::text AND ((scope = 'run' AND "scopeId" = '') OR (scope = 'edge' AND "scopeId" = ANY($2::text[])))`;
