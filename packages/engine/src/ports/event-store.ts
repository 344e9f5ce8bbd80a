import type { EngineEvent, NewEvent } from '../events/event-types';

/**
 * One session's event log. `seq` is assigned by the store and is contiguous from 1; for a fork the
 * log is the parent's events up to the fork point followed by the fork's own.
 */
export interface EventStore {
  /** Every event of the session, ordered by seq. */
  load(options?: { signal?: AbortSignal }): Promise<EngineEvent[]>;
  /**
   * Appends a batch atomically, numbered from `afterSeq + 1`. Rejects (AppError CONFLICT) when the
   * log no longer ends at `afterSeq` or the writer lost its lease: nothing of the batch is stored.
   */
  append(events: readonly NewEvent[], afterSeq: number): Promise<EngineEvent[]>;
}
