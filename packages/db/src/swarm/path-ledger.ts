import type { BudgetAmount, ReserveOutcome } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { PgBudgetLedger } from '../runs/budget-ledger';
import type { Queryable } from '../runs/pg-pool';
import type { WriteUnit } from '../runs/write-unit';
import { PATH_CALL_SQL, PATH_EDGES_SQL, PATH_RESERVE_SQL, PATH_ROOM_SQL, PATH_SETTLE_SQL } from './path-ledger-sql';

interface PathLedgerRow {
  scope: 'run' | 'edge';
  scopeId: string;
  limitTokens: number | null;
  limitCostMicros: number | null;
  reservedTokens: number;
  reservedCostMicros: number;
  spentTokens: number;
  spentCostMicros: number;
}

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
  const result = await db.query({ name: 'looplane_path_edges_v1', text: PATH_EDGES_SQL, values: [sessionId] });
  return (result.rows[0] as { edges: string[] } | undefined)?.edges ?? [];
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

  private async pathValues(key: string, ...rest: number[]): Promise<unknown[]> {
    const { sessionId, owner, version, runId } = this.pathUnit.lease;
    this.edges ??= await pathEdges(this.pathUnit.reader, sessionId);
    return [sessionId, owner, version, runId, `${sessionId}:${key}`, this.edges, ...rest];
  }

  private lostLease(): AppError {
    return new AppError('CONFLICT', `lost the lease on session ${this.pathUnit.lease.sessionId}: the ledger refused the write`);
  }

  override async reserve(key: string, amount: BudgetAmount): Promise<ReserveOutcome> {
    const values = await this.pathValues(key, amount.tokens, amount.costMicros);
    const result = await this.pathUnit.checked({ name: 'looplane_path_reserve_v1', text: PATH_RESERVE_SQL, values });
    const row = result.rows[0] as { leased: boolean; prior: boolean; granted: boolean; ledgers: PathLedgerRow[] };
    if (!row.leased) throw this.lostLease();
    if (row.prior || row.granted) return { granted: true };
    return { granted: false, reason: refusal(row.ledgers, amount) };
  }

  override async settle(key: string, reserved: BudgetAmount, spent: BudgetAmount): Promise<void> {
    const values = await this.pathValues(key, reserved.tokens, reserved.costMicros, spent.tokens, spent.costMicros);
    const result = await this.pathUnit.checked({ name: 'looplane_path_settle_v1', text: PATH_SETTLE_SQL, values });
    if (!(result.rows[0] as { leased: boolean }).leased) throw this.lostLease();
  }

  override async countToolCall(key: string): Promise<{ granted: boolean; limit: number | null }> {
    const values = await this.pathValues(key);
    const result = await this.pathUnit.checked({ name: 'looplane_path_call_v1', text: PATH_CALL_SQL, values });
    const row = result.rows[0] as { leased: boolean; granted: boolean; limitCalls: number | null };
    if (!row.leased) throw this.lostLease();
    return { granted: row.granted, limit: row.limitCalls };
  }
}

/** Whether every ledger on a session's path has room for `amount` (a budget wait may resume). */
export async function pathHasRoom(db: Queryable, runId: string, sessionId: string, amount: BudgetAmount): Promise<boolean> {
  const edges = await pathEdges(db, sessionId);
  const result = await db.query({ name: 'looplane_path_room_v1', text: PATH_ROOM_SQL, values: [runId, edges, amount.tokens, amount.costMicros] });
  return (result.rows[0] as { room: boolean | null } | undefined)?.room ?? true;
}
