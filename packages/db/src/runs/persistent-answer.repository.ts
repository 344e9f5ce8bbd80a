import type { Queryable } from './pg-pool';
import { namedQuery, param } from '../sql/named-query';
import { FINISHED_STATUSES_SQL as FINISHED } from '../vocabulary/statuses';

/**
 * A persistent agent's run never finishes on its answer: it waits for the next message. Its latest
 * answer is kept as the session's result (and the run's, for its main line) so lists and the API
 * show it while it waits. Fenced on the lease like a release, and written while the lease is still
 * held, so an answer never overwrites a newer one. Session row first, then Run (the flush's order).
 */
const ANSWER_SQL = namedQuery({
  name: 'looplane_persistent_answer_v1',
  params: { session_id: param.text, owner: param.text, version: param.int, result: param.text },
  text: `
WITH s AS (
  UPDATE "Session" SET result = :result, "updatedAt" = statement_timestamp()
  WHERE id = :session_id AND "leaseOwner" = :owner AND "leaseVersion" = :version
  RETURNING "runId"
)
UPDATE "Run" r SET result = :result, "updatedAt" = statement_timestamp()
FROM s WHERE r.id = s."runId" AND r."mainSessionId" = :session_id AND r.status NOT IN ${FINISHED}`,
});

/** Records the answer a persistent session waits after (no-op when the lease was lost). */
export async function recordWaitingAnswer(db: Queryable, lease: { sessionId: string; owner: string; version: number }, answer: string): Promise<void> {
  await db.query(ANSWER_SQL.bind({ session_id: lease.sessionId, owner: lease.owner, version: lease.version, result: answer }));
}
