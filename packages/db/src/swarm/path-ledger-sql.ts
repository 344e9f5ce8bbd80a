import { LEDGER_FENCE_CTES, LEDGER_PARAMS } from '../runs/budget-ledger';
import { namedQuery, param } from '../sql/named-query';

/** A ledger of the path, as a refused reservation reports it. */
export interface PathLedgerRow {
  scope: 'run' | 'edge';
  scopeId: string;
  limitTokens: number | null;
  limitCostMicros: number | null;
  reservedTokens: number;
  reservedCostMicros: number;
  spentTokens: number;
  spentCostMicros: number;
}

/** The run ledger's parameters ({@link LEDGER_PARAMS}) and the edge ids of the session's path. */
const PATH_PARAMS = { ...LEDGER_PARAMS, edge_ids: param.textArray };

/**
 * SQL of the path ledger: every statement locks in the order appends do (the session's row as
 * the lease fence, then the run row, then the path's ledgers by id), so sessions of one run never
 * deadlock with each other or with a flush.
 */
const PATH_HEAD = `${LEDGER_FENCE_CTES}, led AS (
  SELECT * FROM "BudgetLedger" WHERE "runId" = :run_id AND EXISTS (SELECT 1 FROM run_row)
    AND ((scope = 'run' AND "scopeId" = '') OR (scope = 'edge' AND "scopeId" = ANY(:edge_ids)))
  ORDER BY id FOR UPDATE
)`;

/** The edges crossed from the root to a session (its ancestors' `edgeId`s; forks add none). */
export const PATH_EDGES_SQL = namedQuery({
  name: 'looplane_path_edges_v1',
  params: { session_id: param.text },
  text: `
WITH RECURSIVE chain AS (
  SELECT id, "parentId", "edgeId", 0 AS depth FROM "Session" WHERE id = :session_id
  UNION ALL
  SELECT s.id, s."parentId", s."edgeId", c.depth + 1 FROM "Session" s JOIN chain c ON s.id = c."parentId" WHERE c.depth < 64
)
SELECT COALESCE(array_agg("edgeId") FILTER (WHERE "edgeId" IS NOT NULL), '{}') AS edges FROM chain`,
}).returns<{ edges: string[] }>();

/**
 * Reserve on every ledger of the path, all or nothing: one UPDATE that changes every row only if
 * each of them stays within every limit with the amount added; one `reserve` entry per ledger. A
 * key already reserved is granted again without reserving twice (the engine repeats the last call
 * after a crash).
 */
export const PATH_RESERVE_SQL = namedQuery({
  name: 'looplane_path_reserve_v2',
  params: { ...PATH_PARAMS, tokens: param.bigint, cost_micros: param.bigint },
  text: `${PATH_HEAD}, prior AS (
  SELECT 1 FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM led) AND e.kind = 'reserve' AND e.reservation = :reservation_key LIMIT 1
), fits AS (
  SELECT COALESCE(bool_and(
    (l."limitTokens" IS NULL OR l."reservedTokens" + l."spentTokens" + :tokens <= l."limitTokens")
    AND (l."limitCostMicros" IS NULL OR l."reservedCostMicros" + l."spentCostMicros" + :cost_micros <= l."limitCostMicros")), true) AS ok
  FROM led l
), upd AS (
  UPDATE "BudgetLedger" b SET
    "reservedTokens" = b."reservedTokens" + :tokens,
    "reservedCostMicros" = b."reservedCostMicros" + :cost_micros,
    "updatedAt" = statement_timestamp()
  FROM led WHERE b.id = led.id AND NOT EXISTS (SELECT 1 FROM prior) AND (SELECT ok FROM fits)
  RETURNING b.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", reservation) SELECT id, 'reserve', :tokens, :cost_micros, :reservation_key FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM prior) AS prior, (SELECT ok FROM fits) AS granted,
  COALESCE((SELECT json_agg(json_build_object('scope', scope, 'scopeId', "scopeId", 'limitTokens', "limitTokens", 'limitCostMicros', "limitCostMicros",
    'reservedTokens', "reservedTokens", 'reservedCostMicros', "reservedCostMicros", 'spentTokens', "spentTokens", 'spentCostMicros', "spentCostMicros")) FROM led), '[]') AS ledgers`,
}).returns<{ leased: boolean; prior: boolean; granted: boolean; ledgers: PathLedgerRow[] }>();

/**
 * Settle on every ledger of the path: charge what was spent, release the rest of the reservation
 * (one `charge` and one `release` entry per ledger). Only ledgers holding the key's reservation
 * are touched, so a settle never releases what was not reserved.
 */
export const PATH_SETTLE_SQL = namedQuery({
  name: 'looplane_path_settle_v2',
  params: {
    ...PATH_PARAMS,
    reserved_tokens: param.bigint,
    reserved_cost_micros: param.bigint,
    spent_tokens: param.bigint,
    spent_cost_micros: param.bigint,
  },
  text: `${PATH_HEAD}, held AS (
  SELECT DISTINCT e."ledgerId" AS id FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM led) AND e.kind = 'reserve' AND e.reservation = :reservation_key
), done AS (
  SELECT 1 FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM held) AND e.kind = 'charge' AND e.reservation = :reservation_key LIMIT 1
), upd AS (
  UPDATE "BudgetLedger" b SET
    "reservedTokens" = b."reservedTokens" - :reserved_tokens,
    "reservedCostMicros" = b."reservedCostMicros" - :reserved_cost_micros,
    "spentTokens" = b."spentTokens" + :spent_tokens,
    "spentCostMicros" = b."spentCostMicros" + :spent_cost_micros,
    "updatedAt" = statement_timestamp()
  FROM held WHERE b.id = held.id AND NOT EXISTS (SELECT 1 FROM done)
  RETURNING b.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", reservation)
  SELECT id, 'charge', :spent_tokens, :spent_cost_micros, :reservation_key FROM upd
  UNION ALL
  SELECT id, 'release', GREATEST(0, :reserved_tokens - :spent_tokens), GREATEST(0, :reserved_cost_micros - :spent_cost_micros), :reservation_key FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased`,
}).returns<{ leased: boolean }>();

/** Count one call (a tool call) on every ledger of the path, all or nothing, once per key. */
export const PATH_CALL_SQL = namedQuery({
  name: 'looplane_path_call_v2',
  params: PATH_PARAMS,
  text: `${PATH_HEAD}, prior AS (
  SELECT 1 FROM "BudgetEntry" e WHERE e."ledgerId" IN (SELECT id FROM led) AND e.kind = 'call' AND e.reservation = :reservation_key LIMIT 1
), fits AS (
  SELECT COALESCE(bool_and(l."limitCalls" IS NULL OR l.calls + 1 <= l."limitCalls"), true) AS ok FROM led l
), upd AS (
  UPDATE "BudgetLedger" b SET calls = b.calls + 1, "updatedAt" = statement_timestamp()
  FROM led WHERE b.id = led.id AND NOT EXISTS (SELECT 1 FROM prior) AND (SELECT ok FROM fits)
  RETURNING b.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, calls, reservation) SELECT id, 'call', 1, :reservation_key FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM prior) OR (SELECT ok FROM fits) AS granted,
  (SELECT min("limitCalls") FROM led) AS "limitCalls"`,
}).returns<{ leased: boolean; granted: boolean; limitCalls: number | null }>();

/** Room on every ledger of a session's path (null column: unlimited), read without a lease. */
export const PATH_ROOM_SQL = namedQuery({
  name: 'looplane_path_room_v2',
  params: { run_id: param.text, edge_ids: param.textArray, tokens: param.bigint, cost_micros: param.bigint },
  text: `
SELECT bool_and(
  ("limitTokens" IS NULL OR "limitTokens" - "reservedTokens" - "spentTokens" >= :tokens)
  AND ("limitCostMicros" IS NULL OR "limitCostMicros" - "reservedCostMicros" - "spentCostMicros" >= :cost_micros)) AS room
FROM "BudgetLedger" WHERE "runId" = :run_id AND ((scope = 'run' AND "scopeId" = '') OR (scope = 'edge' AND "scopeId" = ANY(:edge_ids)))`,
}).returns<{ room: boolean | null }>();
