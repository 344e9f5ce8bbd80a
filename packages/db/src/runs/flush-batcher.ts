import { FLUSH_ONE_SQL, FLUSH_SQL } from './append-sql';
import type { PgPool, Queryable } from './pg-pool';

/** One session's buffer as the flush statement takes it (see append-sql.ts for the fields). */
export interface FlushItem {
  sid: string;
  owner: string;
  ver: number;
  after: number;
  n: number;
  ttl: number;
  fin: string | null;
  res: string | null;
  err: string | null;
  started: boolean;
  st: number;
  sc: number;
  tc: number;
  unl: boolean;
  /** The events as a JSON array text, built once by the unit. */
  evJson: string;
  inbox: { id: string; seq: number }[];
  led: { rt: number; rc: number; st: number; sc: number; calls: number; entries: unknown[] } | null;
}

/** The last event number a written session got (0 without events), or null when its fence failed. */
export type FlushOutcome = number | null;

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/** One item as a record of the statement's input, written field by field: this runs for every flush of every session. */
function itemJson(item: FlushItem, k: number): string {
  return (
    `{"k":${k},"sid":${text(item.sid)},"owner":${text(item.owner)},"ver":${item.ver},"after":${item.after},"n":${item.n},"ttl":${item.ttl},` +
    `"fin":${text(item.fin)},"res":${text(item.res)},"err":${text(item.err)},"started":${item.started},"st":${item.st},"sc":${item.sc},` +
    `"tc":${item.tc},"unl":${item.unl},"inbox":${JSON.stringify(item.inbox)},"led":${item.led ? JSON.stringify(item.led) : 'null'},"ev":${item.evJson}}`
  );
}

function inputJson(items: readonly FlushItem[]): string {
  return `[${items.map(itemJson).join(',')}]`;
}

/** Runs the flush statement for `items` on `db`; per item, what it got. */
export async function flushItems(db: Queryable, items: readonly FlushItem[]): Promise<FlushOutcome[]> {
  if (items.length === 1) return [await flushOne(db, items[0]!)];
  const result = await db.query({ name: 'looplane_flush_v3', text: FLUSH_SQL, values: [inputJson(items)] });
  const outcomes: FlushOutcome[] = items.map(() => null);
  for (const row of result.rows as { k: number; last: string | number }[]) outcomes[row.k] = Number(row.last);
  return outcomes;
}

async function flushOne(db: Queryable, item: FlushItem): Promise<FlushOutcome> {
  const values = [
    item.sid, item.owner, item.ver, item.after, item.n, item.evJson, item.ttl, item.fin, item.res, item.err,
    item.started, item.st, item.sc, item.tc, JSON.stringify(item.inbox), item.led ? JSON.stringify(item.led) : null, item.unl,
  ];
  const result = await db.query({ name: 'looplane_flush_one_v1', text: FLUSH_ONE_SQL, values });
  const row = result.rows[0] as { ok: number; last: string | null };
  return row.ok === 1 ? Number(row.last ?? 0) : null;
}

interface Pending {
  item: FlushItem;
  resolve: (outcome: FlushOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the sessions of one worker: flushes submitted while `parallel` statements are
 * being written wait and go together into the next one, one commit (one fsync) for all of them. With hundreds of
 * loops ending their model calls at the same moment, this turns hundreds of small transactions
 * into a few. A session alone is written at once. If a batch fails as a whole (a bad row, a
 * deadlock, a lost connection), each of its sessions is retried alone, so one session's problem
 * is never another's.
 */
export class FlushBatcher {
  private readonly queue: Pending[] = [];
  private running = 0;

  constructor(
    private readonly pool: PgPool,
    private readonly options: { maxBatch?: number; parallel?: number } = {},
  ) {}

  submit(item: FlushItem): Promise<FlushOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    const parallel = this.options.parallel ?? 2;
    while (this.running < parallel && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch ?? 256);
      this.running++;
      void this.write(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await flushItems(this.pool, batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const p of batch) {
        await flushItems(this.pool, [p.item]).then((outcomes) => p.resolve(outcomes[0]!), p.reject);
      }
    }
  }
}
