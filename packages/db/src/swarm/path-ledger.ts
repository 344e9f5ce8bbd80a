import type { BudgetAmount, ReserveOutcome } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { ledgerParams, PgBudgetLedger } from '../runs/budget-ledger';
import type { Queryable } from '../runs/pg-pool';
import type { WriteUnit } from '../runs/write-unit';
import { rowsOf } from '../sql/named-query';
import { PATH_CALL_SQL, PATH_EDGES_SQL, PATH_RESERVE_SQL, PATH_ROOM_SQL, PATH_SETTLE_SQL, type PathLedgerRow } from './path-ledger-sql';

/**
 * Which ledger of the path refused, and by how much. The webhooks trigger on `budget.exceeded`
 * (migration `webhooks`) reads an edge's clause, "the budget of edge <id> needs <n> tokens|µ$",
 * to report `graph.edge.exhausted`: keep that wording.
 */
function refusal(rows: PathLedgerRow[], amount: BudgetAmount): string {
  const parts: string[] = [];
  for (const l of rows) {
    const name = l.scope === 'run' ? 'the run budget' : `the budget of edge ${l.scopeId}`;
    if (l.limitTokens !== null && Number(l.reservedTokens) + Number(l.spentTokens) + amount.tokens > Number(l.limitTokens)) {
      parts.push(`${name} needs ${amount.tokens} tokens; ${l.spentTokens} spent and ${l.reservedTokens} reserved of ${l.limitTokens}`);
    }
    if (l.limitCostMicros !== null && Number(l.reservedCostMicros) + Number(l.spentCostMicros) + amount.costMicros > Number(l.limitCostMicros)) {
      parts.push(`${name} needs ${amount.costMicros} µ$; ${l.spentCostMicros} spent and ${l.reservedCostMicros} reserved of ${l.limitCostMicros}`);
    }
  }
  return parts.join('; ') || 'a budget on the path is exhausted';
}

/** The edges crossed from the root to a session, root first order not guaranteed (a set is what matters). */
async function pathEdges(db: Queryable, sessionId: string): Promise<string[]> {
  return rowsOf(PATH_EDGES_SQL, await db.query(PATH_EDGES_SQL.bind({ session_id: sessionId })))[0]?.edges ?? [];
}

/**
 * The budget port of a session of a graph run: the same pre-authorised mechanism as the run
 * ledger ({@link PgBudgetLedger}), over every ledger on the path from the root (the run's and each
 * edge's crossed to reach the session). A reservation is one statement that reserves on all of
 * them or on none; a settlement charges and releases on every ledger that holds the reservation;
 * a tool call is counted on all of them or refused. Each statement runs in the write unit's
 * transaction, so it commits with the event that records it. Spend can never pass any limit on
 * the path.
 */
export class PgPathLedger extends PgBudgetLedger {
  private edges: string[] | null = null;

  constructor(private readonly pathUnit: WriteUnit) {
    super(pathUnit, { tokensOrCost: true });
  }

  /** The ledger's parameters for `key` and the session's path (read once, on the first statement). */
  private async pathParams(key: string) {
    const { lease } = this.pathUnit;
    this.edges ??= await pathEdges(this.pathUnit.reader, lease.sessionId);
    return { ...ledgerParams(lease, `${lease.sessionId}:${key}`), edge_ids: this.edges };
  }

  private lostLease(): AppError {
    return new AppError('CONFLICT', `lost the lease on session ${this.pathUnit.lease.sessionId}: the ledger refused the write`);
  }

  override async reserve(key: string, amount: BudgetAmount): Promise<ReserveOutcome> {
    const statement = PATH_RESERVE_SQL.bind({ ...(await this.pathParams(key)), tokens: amount.tokens, cost_micros: amount.costMicros });
    const row = rowsOf(PATH_RESERVE_SQL, await this.pathUnit.checked(statement))[0]!;
    if (!row.leased) throw this.lostLease();
    if (row.prior || row.granted) return { granted: true };
    return { granted: false, reason: refusal(row.ledgers, amount) };
  }

  override async settle(key: string, reserved: BudgetAmount, spent: BudgetAmount): Promise<void> {
    const statement = PATH_SETTLE_SQL.bind({
      ...(await this.pathParams(key)),
      reserved_tokens: reserved.tokens,
      reserved_cost_micros: reserved.costMicros,
      spent_tokens: spent.tokens,
      spent_cost_micros: spent.costMicros,
    });
    if (!rowsOf(PATH_SETTLE_SQL, await this.pathUnit.checked(statement))[0]!.leased) throw this.lostLease();
  }

  override async countToolCall(key: string): Promise<{ granted: boolean; limit: number | null }> {
    const row = rowsOf(PATH_CALL_SQL, await this.pathUnit.checked(PATH_CALL_SQL.bind(await this.pathParams(key))))[0]!;
    if (!row.leased) throw this.lostLease();
    return { granted: row.granted, limit: row.limitCalls };
  }
}

/** Whether every ledger on a session's path has room for `amount` (a budget wait may resume). */
export async function pathHasRoom(db: Queryable, runId: string, sessionId: string, amount: BudgetAmount): Promise<boolean> {
  const edges = await pathEdges(db, sessionId);
  const statement = PATH_ROOM_SQL.bind({ run_id: runId, edge_ids: edges, tokens: amount.tokens, cost_micros: amount.costMicros });
  return rowsOf(PATH_ROOM_SQL, await db.query(statement))[0]?.room ?? true;
}
