import type { BudgetAmount, BudgetPort, ReserveOutcome } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { Queryable } from './pg-pool';
import type { WriteUnit } from './write-unit';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The lease fence and the run row lock every ledger statement starts with (the path ledgers of
 * swarm runs too), over {@link LEDGER_PARAMS}. A worker that lost its lease cannot reserve,
 * charge or count anything.
 */
export const LEDGER_FENCE_CTES = `
WITH fence AS (
  SELECT 1 FROM "Session" WHERE id = :session_id AND "leaseOwner" = :lease_owner AND "leaseVersion" = :lease_version
    AND "leaseExpiresAt" > statement_timestamp() FOR UPDATE
), run_row AS (
  SELECT 1 FROM "Run" WHERE id = :run_id AND EXISTS (SELECT 1 FROM fence) FOR UPDATE
)`;

/** The parameters of {@link LEDGER_FENCE_CTES}, and the key every ledger statement is made under. */
export const LEDGER_PARAMS = {
  session_id: param.text,
  lease_owner: param.text,
  lease_version: param.int,
  run_id: param.text,
  reservation_key: param.text,
};

/** {@link LEDGER_PARAMS} for a write unit's lease and a (session-prefixed) key. */
export const ledgerParams = (lease: WriteUnit['lease'], reservationKey: string) => ({
  session_id: lease.sessionId,
  lease_owner: lease.owner,
  lease_version: lease.version,
  run_id: lease.runId,
  reservation_key: reservationKey,
});

/**
 * Shared head of every run-ledger statement: the lease fence (Session row), then the Run row, then
 * the run's ledger, locked in the same order as appends so sessions of one run never deadlock.
 */
const LEDGER_HEAD = `${LEDGER_FENCE_CTES}, led AS (
  SELECT * FROM "BudgetLedger" WHERE "runId" = :run_id AND scope = 'run' AND "scopeId" = '' AND EXISTS (SELECT 1 FROM run_row) FOR UPDATE
)`;

/**
 * A prior entry of `kind` under the key among the ledger's most recent entries. Exactly-once per
 * key comes from the write unit (a ledger change commits in the same transaction as the event
 * that records it, so the engine repeats a call only when neither was stored); this lookup guards
 * a call repeated right after a failure, bounded so a long run's ledger does not slow every call.
 */
const entry = (kind: string) => `
  SELECT 1 FROM (
    SELECT e.kind, e.reservation FROM "BudgetEntry" e WHERE e."ledgerId" = (SELECT id FROM led) ORDER BY e."createdAt" DESC LIMIT 256
  ) recent WHERE recent.kind = '${kind}' AND recent.reservation = :reservation_key`;

/**
 * Reserve: one UPDATE that succeeds only if reserved + spent + amount stays within every limit,
 * recorded as a `reserve` entry under the key; a key already reserved is granted again without
 * reserving twice (the engine repeats the last call after a crash).
 */
const RESERVE_SQL = namedQuery({
  name: 'looplane_ledger_reserve_v2',
  params: { ...LEDGER_PARAMS, tokens: param.bigint, cost_micros: param.bigint },
  text: `${LEDGER_HEAD}, prior AS (${entry('reserve')}
), upd AS (
  UPDATE "BudgetLedger" l SET
    "reservedTokens" = l."reservedTokens" + :tokens,
    "reservedCostMicros" = l."reservedCostMicros" + :cost_micros,
    "updatedAt" = statement_timestamp()
  FROM led WHERE l.id = led.id AND NOT EXISTS (SELECT 1 FROM prior)
    AND (l."limitTokens" IS NULL OR l."reservedTokens" + l."spentTokens" + :tokens <= l."limitTokens")
    AND (l."limitCostMicros" IS NULL OR l."reservedCostMicros" + l."spentCostMicros" + :cost_micros <= l."limitCostMicros")
  RETURNING l.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, tokens, "costMicros", reservation) SELECT id, 'reserve', :tokens, :cost_micros, :reservation_key FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM prior) AS prior, EXISTS (SELECT 1 FROM upd) AS granted,
  (SELECT row_to_json(led) FROM led) AS ledger`,
}).returns<{ leased: boolean; prior: boolean; granted: boolean; ledger: LedgerRow | null }>();

/** Tool-call limit: count one call under the key, once, if `calls + 1 <= limitCalls`. */
const COUNT_CALL_SQL = namedQuery({
  name: 'looplane_ledger_call_v2',
  params: LEDGER_PARAMS,
  text: `${LEDGER_HEAD}, prior AS (${entry('call')}
), upd AS (
  UPDATE "BudgetLedger" l SET calls = l.calls + 1, "updatedAt" = statement_timestamp()
  FROM led WHERE l.id = led.id AND NOT EXISTS (SELECT 1 FROM prior) AND (l."limitCalls" IS NULL OR l.calls + 1 <= l."limitCalls")
  RETURNING l.id
), ins AS (
  INSERT INTO "BudgetEntry" ("ledgerId", kind, calls, reservation) SELECT id, 'call', 1, :reservation_key FROM upd
)
SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM prior) OR EXISTS (SELECT 1 FROM upd) OR NOT EXISTS (SELECT 1 FROM led) AS granted,
  (SELECT "limitCalls" FROM led) AS "limitCalls"`,
}).returns<{ leased: boolean; granted: boolean; limitCalls: number | null }>();

/** Room left on the run ledger (null: unlimited), read without a lease (resume checks). */
const ROOM_SQL = namedQuery({
  name: 'looplane_ledger_room_v2',
  params: { run_id: param.text },
  text: `
SELECT "limitTokens" - "reservedTokens" - "spentTokens" AS tokens, "limitCostMicros" - "reservedCostMicros" - "spentCostMicros" AS "costMicros"
FROM "BudgetLedger" WHERE "runId" = :run_id AND scope = 'run' AND "scopeId" = ''`,
}).returns<{ tokens: string | null; costMicros: string | null }>();

interface LedgerRow {
  limitTokens: number | string | null;
  limitCostMicros: number | string | null;
  reservedTokens: number | string;
  reservedCostMicros: number | string;
  spentTokens: number | string;
  spentCostMicros: number | string;
}

/** What a ledger row leaves free (an unlimited dimension: as much as a number holds). */
function roomOf(ledger: LedgerRow): BudgetAmount {
  const free = (limit: number | string | null, reserved: number | string, spent: number | string) =>
    limit === null ? Number.MAX_SAFE_INTEGER : Number(limit) - Number(reserved) - Number(spent);
  return {
    tokens: free(ledger.limitTokens, ledger.reservedTokens, ledger.spentTokens),
    costMicros: free(ledger.limitCostMicros, ledger.reservedCostMicros, ledger.spentCostMicros),
  };
}

function refusal(ledger: LedgerRow, amount: BudgetAmount): string {
  const parts: string[] = [];
  const over = (limit: number | string | null, reserved: number | string, spent: number | string, need: number) =>
    limit !== null && Number(reserved) + Number(spent) + need > Number(limit);
  if (over(ledger.limitTokens, ledger.reservedTokens, ledger.spentTokens, amount.tokens)) {
    parts.push(`needs ${amount.tokens} tokens; ${ledger.spentTokens} spent and ${ledger.reservedTokens} reserved of ${ledger.limitTokens}`);
  }
  if (over(ledger.limitCostMicros, ledger.reservedCostMicros, ledger.spentCostMicros, amount.costMicros)) {
    parts.push(`needs ${amount.costMicros} µ$; ${ledger.spentCostMicros} spent and ${ledger.reservedCostMicros} reserved of ${ledger.limitCostMicros}`);
  }
  return parts.join('; ') || 'the run budget is exhausted';
}

/**
 * The engine's budget port over the run's `BudgetLedger` row, through the session's write unit.
 * Keys are prefixed with the session id (the engine's keys are unique per session only).
 *
 * - On a ledger with a token or cost limit, `reserve` is one checked UPDATE (reserved + spent +
 *   amount within every limit) in the unit's transaction, so it commits with `budget.reserved`;
 *   `settle` charges what was spent and releases the rest (`charge` and `release` entries).
 * - On a ledger without limits (they stay unlimited: raising a limit keeps NULL as NULL) there is
 *   nothing to reserve against: `reserve` is granted at once and `settle` only charges. The next
 *   flush refuses to write if the ledger gained a limit meanwhile.
 * Ledger changes are written by the flush that writes the events recording them. A run without a
 * ledger row is unlimited.
 */
export class PgBudgetLedger implements BudgetPort {
  /**
   * Room on the run ledger as this session last saw it, less what it reserved and plus what it
   * released since (null: not known). Other sessions of the run and a raised limit change the
   * true room without telling; the flush's check is what decides.
   */
  private room: BudgetAmount | null = null;

  constructor(
    private readonly unit: WriteUnit,
    private readonly limits: { tokensOrCost: boolean },
  ) {}

  private key(key: string): string {
    return `${this.unit.lease.sessionId}:${key}`;
  }

  private lost(): AppError {
    return new AppError('CONFLICT', `lost the lease on session ${this.unit.lease.sessionId}: the ledger refused the write`);
  }

  async reserve(key: string, amount: BudgetAmount): Promise<ReserveOutcome> {
    if (!this.limits.tokensOrCost) {
      this.unit.changeLedger({ assumesUnlimited: true });
      return { granted: true };
    }
    const room = this.room;
    if (room && amount.tokens <= room.tokens && amount.costMicros <= room.costMicros && this.unit.canReserveAhead) {
      // Room this session knows of: granted now, checked by the flush that writes `budget.reserved`
      // (the one before the model call), in that statement, under the ledger's lock.
      this.unit.reserveAhead({
        reservedTokens: amount.tokens,
        reservedCostMicros: amount.costMicros,
        entries: [{ kind: 'reserve', tokens: amount.tokens, costMicros: amount.costMicros, calls: 0, reservation: this.key(key) }],
      });
      this.room = { tokens: room.tokens - amount.tokens, costMicros: room.costMicros - amount.costMicros };
      return { granted: true };
    }
    const statement = RESERVE_SQL.bind({ ...ledgerParams(this.unit.lease, this.key(key)), tokens: amount.tokens, cost_micros: amount.costMicros });
    const row = rowsOf(RESERVE_SQL, await this.unit.checked(statement))[0]!;
    if (!row.leased) throw this.lost();
    // What was free before this reservation, less it when granted; a repeated key learns nothing.
    const free = row.ledger && !row.prior ? roomOf(row.ledger) : null;
    this.room = free && row.granted ? { tokens: free.tokens - amount.tokens, costMicros: free.costMicros - amount.costMicros } : null;
    if (row.prior || row.granted || !row.ledger) return { granted: true };
    return { granted: false, reason: refusal(row.ledger, amount) };
  }

  async settle(key: string, reserved: BudgetAmount, spent: BudgetAmount): Promise<void> {
    const reservation = this.key(key);
    const charge = { kind: 'charge' as const, tokens: spent.tokens, costMicros: spent.costMicros, calls: 0, reservation };
    if (!this.limits.tokensOrCost) {
      this.unit.changeLedger({ spentTokens: spent.tokens, spentCostMicros: spent.costMicros, entries: [charge] });
      return;
    }
    if (this.room) {
      const left = this.room;
      this.room = { tokens: left.tokens + reserved.tokens - spent.tokens, costMicros: left.costMicros + reserved.costMicros - spent.costMicros };
    }
    this.unit.changeLedger({
      reservedTokens: -reserved.tokens,
      reservedCostMicros: -reserved.costMicros,
      spentTokens: spent.tokens,
      spentCostMicros: spent.costMicros,
      entries: [
        charge,
        {
          kind: 'release',
          tokens: Math.max(0, reserved.tokens - spent.tokens),
          costMicros: Math.max(0, reserved.costMicros - spent.costMicros),
          calls: 0,
          reservation,
        },
      ],
    });
  }

  /** Counts a tool call against the run's tool-call limit, once per key; false when the limit is used up. */
  async countToolCall(key: string): Promise<{ granted: boolean; limit: number | null }> {
    const row = rowsOf(COUNT_CALL_SQL, await this.unit.checked(COUNT_CALL_SQL.bind(ledgerParams(this.unit.lease, this.key(key)))))[0]!;
    if (!row.leased) throw this.lost();
    return { granted: row.granted, limit: row.limitCalls };
  }
}

/** Whether the run ledger now has room for `amount` (a budget wait may resume). No ledger: unlimited. */
export async function ledgerHasRoom(db: Queryable, runId: string, amount: BudgetAmount): Promise<boolean> {
  const row = rowsOf(ROOM_SQL, await db.query(ROOM_SQL.bind({ run_id: runId })))[0];
  if (!row) return true;
  return (row.tokens === null || Number(row.tokens) >= amount.tokens) && (row.costMicros === null || Number(row.costMicros) >= amount.costMicros);
}
