import { ledgerHasRoom, type Queryable } from '@looplane/db';
import { createEvent, type Clock, type NewEvent, type RunState } from '@looplane/engine';

/** A wait the engine reports (`next(state)` is `wait`): why, and on what (call ids, request ids). */
export interface Wait {
  reason: 'approval' | 'child' | 'budget';
  refs: string[];
}

export interface WakeContext {
  db: Queryable;
  runId: string;
  sessionId: string;
  state: RunState;
  clock: Clock;
}

/**
 * Looks at what changed in Postgres for one kind of wait and returns the deciding events to
 * append (then the session is driven again), or null while it must keep waiting.
 */
type WakeResolver = (wait: Wait, context: WakeContext) => Promise<NewEvent[] | null>;

const LAST_EXCEEDED_SQL = `
SELECT payload FROM "Event" WHERE "runId" = $1 AND "sessionId" = $2 AND type = 'budget.exceeded' ORDER BY seq DESC LIMIT 1`;

/** A budget wait ends once the run ledger has room for the refused reservation (`runs.raiseBudget`). */
const budget: WakeResolver = async (_wait, { db, runId, sessionId, clock }) => {
  const found = await db.query({ name: 'looplane_last_exceeded_v1', text: LAST_EXCEEDED_SQL, values: [runId, sessionId] });
  const refused = (found.rows[0] as { payload: { tokens: number; costMicros: number } } | undefined)?.payload;
  if (refused && !(await ledgerHasRoom(db, runId, refused))) return null;
  return [createEvent('run.resumed', { reason: 'budget', note: 'the run budget was raised' }, clock)];
};

/**
 * The resume dispatch: one resolver per wait reason. Approvals (decided `Approval` rows become
 * `approval.decided`) and child sessions (a finished child becomes `delegation.returned`) add
 * their resolvers here; until then those waits only end by cancellation.
 */
const resolvers: Record<Wait['reason'], WakeResolver> = {
  budget,
  approval: async () => null,
  child: async () => null,
};

/** The events that end `wait`, or null if nothing it waits for has happened yet. */
export function resolveWait(wait: Wait, context: WakeContext): Promise<NewEvent[] | null> {
  return resolvers[wait.reason](wait, context);
}
