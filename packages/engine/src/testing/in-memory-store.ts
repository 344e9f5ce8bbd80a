import { AppError } from '@looplane/shared';
import { decodeEvent } from '../events/event-codec';
import type { EngineEvent, NewEvent } from '../events/event-types';
import type { EventStore } from '../ports/event-store';

export interface InMemoryStoreOptions {
  /** Round-trip every appended event through JSON and the codec, as a database would (default true). */
  validate?: boolean;
}

/**
 * The event-store port in memory, for tests and benchmarks. Like the Postgres store it appends
 * batches atomically after an expected seq and refuses a stale writer with CONFLICT.
 */
export class InMemoryEventStore implements EventStore {
  readonly events: EngineEvent[];
  /** The seq ending each appended batch: the only points where a crash can cut a durable log. */
  readonly batchEnds: number[] = [];
  private failure: AppError | null = null;
  private readonly validate: boolean;

  constructor(initial: readonly EngineEvent[] = [], options: InMemoryStoreOptions = {}) {
    this.events = [...initial];
    this.validate = options.validate ?? true;
    if (this.events.length > 0) this.batchEnds.push(this.lastSeq);
  }

  get lastSeq(): number {
    return this.events[this.events.length - 1]?.seq ?? 0;
  }

  async load(): Promise<EngineEvent[]> {
    return [...this.events];
  }

  async append(events: readonly NewEvent[], afterSeq: number): Promise<EngineEvent[]> {
    if (this.failure) {
      const failure = this.failure;
      this.failure = null;
      throw failure;
    }
    const last = this.lastSeq;
    if (afterSeq !== last) throw new AppError('CONFLICT', `append expected the log to end at seq ${afterSeq}, but it ends at ${last}`);
    const stored = events.map((event, i) => {
      const numbered = { seq: last + 1 + i, ...event } as EngineEvent;
      return this.validate ? decodeEvent(JSON.parse(JSON.stringify(numbered))) : numbered;
    });
    this.events.push(...stored);
    if (stored.length > 0) this.batchEnds.push(this.lastSeq);
    return stored;
  }

  /** Makes the next append fail (a lost lease, a dropped connection). */
  failNextAppend(error = new AppError('CONFLICT', 'lease lost')): void {
    this.failure = error;
  }

  /** A new store holding the first `seq` events: what a crash right after that batch leaves behind. */
  prefix(seq: number): InMemoryEventStore {
    return new InMemoryEventStore(
      this.events.filter((e) => e.seq <= seq),
      { validate: this.validate },
    );
  }
}
