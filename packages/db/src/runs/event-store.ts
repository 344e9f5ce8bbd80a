import { decodeEvent, type EngineEvent, type EventStore, type NewEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { LOAD_EVENTS_SQL, SESSION_PARENT_SQL } from './append-sql';
import type { Queryable } from './pg-pool';
import { rowsOf } from '../sql/named-query';
import type { WriteUnit } from './write-unit';

export interface PgEventStoreOptions {
  /** Where `load` reads (the pool). */
  pool: Queryable;
  /** The session's write unit: appends are buffered there and flushed before each side effect. */
  unit: WriteUnit;
}

/**
 * The engine's event store over Postgres. `append` hands the batch to the session's
 * {@link WriteUnit}, which writes it (fenced on session, owner, version, unexpired lease and
 * afterSeq) with the next flush; a fenced-off writer gets CONFLICT and nothing of its buffer is
 * stored. `load` returns what is durable.
 */
export class PgEventStore implements EventStore {
  constructor(private readonly options: PgEventStoreOptions) {}

  /** Every event of the session (for a fork: the parent's up to the fork point first), decoded. */
  async load(): Promise<EngineEvent[]> {
    await this.options.unit.flush();
    return loadSessionEvents(this.options.pool, this.options.unit.lease.sessionId);
  }

  append(events: readonly NewEvent[], afterSeq: number): Promise<EngineEvent[]> {
    return this.options.unit.append(events, afterSeq);
  }

  /**
   * Appends inbox messages as events; the same flush marks the rows consumed (`consumedSeq` = the
   * seq of the event each became). `inboxIds[i]` became `events[i]`.
   */
  appendConsuming(events: readonly NewEvent[], afterSeq: number, inboxIds: readonly string[]): Promise<EngineEvent[]> {
    return this.options.unit.append(events, afterSeq, inboxIds);
  }
}

/**
 * A session's log as the engine sees it: for a fork, the parent's events up to the fork point,
 * then its own (seq continues from the fork point). Validated and upcast by the engine's codec.
 */
export async function loadSessionEvents(db: Queryable, sessionId: string): Promise<EngineEvent[]> {
  const chain: { sessionId: string; upTo: number }[] = [{ sessionId, upTo: 2_147_483_647 }];
  for (let id: string | null = sessionId; id; ) {
    const row: { parentId: string | null; forkSeq: number | null } | undefined = rowsOf(
      SESSION_PARENT_SQL,
      await db.query(SESSION_PARENT_SQL.bind({ session_id: id })),
    )[0];
    if (!row) throw new AppError('NOT_FOUND', `session ${id} does not exist`);
    id = row.parentId;
    // A branch forked below its parent's own fork point inherits less of the grandparent too.
    if (id) chain.unshift({ sessionId: id, upTo: Math.min(row.forkSeq ?? 0, chain[0]!.upTo) });
  }
  const events: EngineEvent[] = [];
  for (const link of chain) {
    const found = await db.query(LOAD_EVENTS_SQL.bind({ session_id: link.sessionId, up_to: link.upTo }));
    for (const row of rowsOf(LOAD_EVENTS_SQL, found)) {
      events.push(decodeEvent({ seq: row.seq, type: row.type, v: row.version, at: row.at, payload: row.payload }));
    }
  }
  return events;
}
