import { createEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { FLUSH_DIAGNOSIS_SQL } from './append-sql';
import { flushItems, type FlushItem } from './flush-batcher';
import type { PgPool, Queryable } from './pg-pool';
import type { BatchProjection } from './projection';
import { eventsJson, storableColumn, type DurableAppend, type SessionLease, type TakenWrite } from './write-buffer';
import { rowsOf } from '../sql/named-query';

/**
 * A write Postgres refuses for its data (SQLSTATE class 22, data exception: a value it cannot
 * store; class 54, a program limit such as nesting depth) fails the same way however often it is
 * retried: an AppError naming the reason, and the session is failed with it at once
 * ({@link refusedFinishItem}) instead of being retried (and its model call paid for) again.
 * Anything else (a lost connection, a restart) may heal and stays as it is.
 */
export function refusedData(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(code.startsWith('22') || code.startsWith('54')) || error instanceof AppError) return error;
  return new AppError('INTERNAL', `the database refused the session's events (${code}): ${(error as Error).message}`, { cause: error });
}

/** A flush whose reservation, granted ahead of its check, found no room (SQLSTATE LL001, runs/ledger-check.functions.sql). */
export const isLedgerOverLimit = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'LL001';

/**
 * In place of a write refused for its data: the session's `run.finished` (failed, with the reason),
 * with the ledger change the refused events carried, so the spend of the call that produced them
 * is charged and its reservation released.
 */
export function refusedFinishItem(refused: FlushItem, projection: BatchProjection, error: AppError): FlushItem {
  const reason = `the worker cannot continue this run: ${error.message}`;
  const finished = createEvent('run.finished', { status: 'failed', error: storableColumn(reason) ?? reason }, { now: Date.now });
  return {
    ...refused,
    eventCount: 1,
    eventsJson: eventsJson([finished]),
    // An inbox message the refused events consumed stays unconsumed, as it was never recorded.
    inbox: [],
    // The refused write's audit rows have taken the locked path.
    audit: null,
    finishStatus: 'failed',
    finishResult: null,
    finishError: storableColumn(reason),
    spentTokens: projection.spentTokens,
    spentCostMicros: projection.spentCostMicros,
  };
}

/** Explains a fenced-off flush (slow path only): the lease, the log position, or a ledger that gained a limit. */
export async function explainFence(db: Queryable, lease: SessionLease, afterSeq: number, assumedUnlimited: boolean): Promise<AppError> {
  const found = await db.query(FLUSH_DIAGNOSIS_SQL.bind({ session_id: lease.sessionId })).catch(() => null);
  const row = found ? rowsOf(FLUSH_DIAGNOSIS_SQL, found)[0] : undefined;
  if (!row) return new AppError('CONFLICT', `session ${lease.sessionId} is gone or unreadable`);
  if (row.leaseOwner !== lease.owner || row.leaseVersion !== lease.version || !row.live) {
    return new AppError(
      'CONFLICT',
      `lost the lease on session ${lease.sessionId} (held: ${row.leaseOwner ?? 'nobody'} v${row.leaseVersion}, ours: v${lease.version})`,
    );
  }
  if (row.lastSeq !== afterSeq)
    return new AppError('CONFLICT', `append expected session ${lease.sessionId} to end at seq ${afterSeq}, but it ends at ${row.lastSeq}`);
  if (assumedUnlimited && row.limited)
    return new AppError('CONFLICT', `the run ledger of session ${lease.sessionId} gained a limit while reservations were granted against none`);
  return new AppError('CONFLICT', `session ${lease.sessionId} refused the write`);
}

/** Writes one item on its own, outside the group commit, and tells the live bus what became durable. */
export async function writeAlone(
  pool: PgPool,
  item: FlushItem,
  lease: SessionLease,
  onDurable: ((append: DurableAppend) => void) | undefined,
  last: Pick<DurableAppend, 'type' | 'finished'> | null,
): Promise<void> {
  const [outcome] = await flushItems(pool, [item]);
  if (!outcome || !last) return;
  onDurable?.({ runId: lease.runId, sessionId: lease.sessionId, eventNo: outcome.lastEventNo, ...last });
}

/**
 * A reservation granted ahead of its check met a ledger without room (another session of the run
 * spent it): its flush wrote nothing. What the buffer held before the reservation (a tool's result,
 * say) is written alone, so nothing that happened is lost. Returns the error the unit breaks with:
 * CONFLICT, and the session continues from its log; or the failure of that write.
 */
export async function writeBeforeRefusedReservation(
  pool: PgPool,
  before: TakenWrite,
  lease: SessionLease,
  onDurable: ((append: DurableAppend) => void) | undefined,
  cause: unknown,
): Promise<Error> {
  const refused = new AppError(
    'CONFLICT',
    `the run ledger of session ${lease.sessionId} had no room for a reservation granted before its check; the session continues from its log`,
    { cause },
  );
  if (before.events.length === 0 && !before.item.ledger) return refused;
  const last = before.events.at(-1);
  return writeAlone(pool, before.item, lease, onDurable, last ? { type: last.type, finished: null } : null).then(
    () => refused,
    (failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))),
  );
}
