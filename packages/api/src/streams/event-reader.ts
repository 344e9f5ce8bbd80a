import { queryableOf, readEventFrameRowsOfRuns, type Db } from '@looplane/db';
import { BatchQueue } from '@looplane/shared';
import { eventFrame, type EventFrame } from '../services/run-events';

interface Pending {
  runId: string;
  after: number;
  resolve: (frames: EventFrame[]) => void;
  reject: (error: unknown) => void;
}

/**
 * One read for many streams: `eventNo > after` of several runs in one statement, each row framed as
 * in `readEventFramesAfter` (the payload through the engine's codec).
 */
async function readFramesOfRuns(db: Db, cursors: ReadonlyArray<{ runId: string; after: number }>, limit: number): Promise<EventFrame[][]> {
  return (await readEventFrameRowsOfRuns(queryableOf(db), cursors, limit)).map((rows) => rows.map(eventFrame));
}

/**
 * The event reads of every live stream of a process, batched. At 2,000 events a second spread
 * over a hundred runs, one read per wake-up per stream would be 2,000 queries a second; instead,
 * reads asked for while `parallel` reads are in flight wait and go together into the next one,
 * so the query rate follows Postgres's speed, not the event rate, and a quiet stream's read still
 * goes out at once. Each read starts after it was asked for, so a stream never misses an event
 * committed before its wake-up. Streams of one run at one cursor share their read.
 */
export class EventReader {
  private readonly batches: BatchQueue<Pending>;

  constructor(
    private readonly db: Db,
    private readonly options: { limit: number; maxBatch?: number; parallel?: number },
  ) {
    this.batches = new BatchQueue((batch) => this.run(batch), { maxBatch: options.maxBatch ?? 64, parallel: options.parallel ?? 2 });
  }

  /** The run's events with `eventNo > after`, in order, at most `limit` of them. */
  read(runId: string, after: number): Promise<EventFrame[]> {
    return new Promise((resolve, reject) => this.batches.push({ runId, after, resolve, reject }));
  }

  private async run(batch: Pending[]): Promise<void> {
    const slots = new Map<string, { runId: string; after: number; waiting: Pending[] }>();
    for (const pending of batch) {
      const key = `${pending.runId}\n${pending.after}`;
      const slot = slots.get(key);
      if (slot) slot.waiting.push(pending);
      else slots.set(key, { runId: pending.runId, after: pending.after, waiting: [pending] });
    }
    const cursors = [...slots.values()];
    const frames = await readFramesOfRuns(this.db, cursors, this.options.limit);
    for (const [i, slot] of cursors.entries()) {
      for (const p of slot.waiting) p.resolve(frames[i]!);
    }
  }
}

const readers = new WeakMap<Db, Map<number, EventReader>>();

/** The process's shared reader for a database client and a read size. */
export function eventReader(db: Db, limit: number): EventReader {
  let byLimit = readers.get(db);
  if (!byLimit) {
    byLimit = new Map();
    readers.set(db, byLimit);
  }
  let reader = byLimit.get(limit);
  if (!reader) {
    reader = new EventReader(db, { limit });
    byLimit.set(limit, reader);
  }
  return reader;
}
