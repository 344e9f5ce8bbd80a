import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** What a `budget.exceeded` event refused: the reservation every ledger on the path must have room for. */
export interface RefusedReservation {
  tokens: number;
  costMicros: number;
}

const LAST_EXCEEDED_SQL = namedQuery({
  name: 'looplane_last_exceeded_v2',
  params: { run_id: param.text, session_id: param.text },
  text: `
SELECT payload FROM "Event" WHERE "runId" = :run_id AND "sessionId" = :session_id AND type = 'budget.exceeded' ORDER BY seq DESC LIMIT 1`,
}).returns<{ payload: RefusedReservation }>();

/** The reservation the session's latest `budget.exceeded` event refused (undefined: none). */
export async function lastRefusedReservation(db: Queryable, runId: string, sessionId: string): Promise<RefusedReservation | undefined> {
  return rowsOf(LAST_EXCEEDED_SQL, await db.query(LAST_EXCEEDED_SQL.bind({ run_id: runId, session_id: sessionId })))[0]?.payload;
}
