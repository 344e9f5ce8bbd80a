import type { EngineEvent, NewEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type pg from 'pg';
import { FLUSH_DIAGNOSIS_SQL, FLUSH_SQL } from './append-sql';
import type { PgClient, PgPool, Queryable } from './pg-pool';
import { projectBatch, type TerminalStatus } from './projection';

/** A prepared statement: `name` makes Postgres parse and plan it once per connection. */
export interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}

/** The fencing token: who holds the session's lease, at which version. */
export interface SessionLease {
  runId: string;
  sessionId: string;
  owner: string;
  version: number;
}

/** What became durable with one flush: its last event (for the live bus) and, once, a finished session. */
export interface DurableAppend {
  runId: string;
  sessionId: string;
  eventNo: number;
  type: string;
  /** Set when this flush finished the session. */
  finished: TerminalStatus | null;
}

export interface WriteUnitOptions {
  lease: SessionLease;
  /** Lease length; a flush extends the lease when less than half of it is left. */
  leaseTtlMs: number;
  /** Called after each flush that wrote events, once durable. */
  onDurable?: (append: DurableAppend) => void;
}

interface LedgerEntry {
  kind: 'reserve' | 'charge' | 'release' | 'call';
  tokens: number;
  costMicros: number;
  calls: number;
  reservation: string;
}

/** A change to the run ledger, applied by the next flush (settlements, reservations granted locally). */
export interface LedgerChange {
  reservedTokens: number;
  reservedCostMicros: number;
  spentTokens: number;
  spentCostMicros: number;
  calls: number;
  entries: LedgerEntry[];
  /** The change grants a reservation without a check: valid only while the ledger has no limit. */
  assumesUnlimited: boolean;
}

const noChange = (): LedgerChange => ({ reservedTokens: 0, reservedCostMicros: 0, spentTokens: 0, spentCostMicros: 0, calls: 0, entries: [], assumesUnlimited: false });

/** JSON text of a payload. Postgres `jsonb` refuses NUL characters: they are stored as U+FFFD. */
function payloadText(payload: unknown): string {
  const text = JSON.stringify(payload);
  // `\u0000` preceded by an even number of backslashes is an escaped NUL, not escaped text.
  return text.includes('\\u0000') ? text.replaceAll(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd') : text;
}

function ignoreIdleError(): void {}

/** Repeatable side effects that may run before the events preceding them are committed. */
const MAX_AHEAD = 4;

/**
 * One session's writes, grouped by side effect. Appends and ledger changes are buffered in memory
 * and written by one statement (the flush: fence, events, projection, ledger, inbox) right before
 * the worker calls the model or a tool, and at the end of a drive. So every event is durable
 * before anything outside Postgres can depend on it, and a turn (one model call, one tool call)
 * costs two round trips and two commits however many events it records. A crash can only lose
 * the buffer since the last side effect: a valid prefix of the log, with the ledger changes that
 * belong to it lost with it (they commit in the same statement as the events that record them).
 *
 * While a side effect is in flight (the model streaming deltas) appends are flushed at once, so
 * watchers see them live. A ledger check that needs an answer (a reservation against a limit)
 * opens a transaction that the next flush commits, so the reservation and its event still commit
 * together. If a write fails, the unit is broken: the caller's in-memory state may be ahead of
 * the database and must be reloaded (the worker retries the job).
 */
export class WriteUnit {
  private batches: { events: NewEvent[]; afterSeq: number; inbox: { id: string; seq: number }[] }[] = [];
  private ledger = noChange();
  private client: PgClient | null = null;
  private sideEffects = 0;
  /** The background write started by {@link kick}, if one is running. */
  private background: Promise<void> | null = null;
  /** Repeatable effects started since everything buffered was last durable. */
  private ahead = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private failure: Error | null = null;

  constructor(
    private readonly pool: PgPool,
    private readonly options: WriteUnitOptions,
  ) {}

  get lease(): SessionLease {
    return this.options.lease;
  }

  /** True once a write failed; everything after it is refused. */
  get broken(): boolean {
    return this.failure !== null;
  }

  /**
   * Buffers a batch to follow the last one (flushed at once while a side effect is in flight).
   * `inboxIds[i]` is the inbox row that became `events[i]`: marked consumed by the same flush.
   */
  async append(events: readonly NewEvent[], afterSeq: number, inboxIds: readonly string[] = []): Promise<EngineEvent[]> {
    this.throwIfBroken();
    const last = this.batches.at(-1);
    if (last && afterSeq !== last.afterSeq + last.events.length) {
      throw new AppError('CONFLICT', `append expected session ${this.lease.sessionId} to end at seq ${afterSeq}, but it ends at ${last.afterSeq + last.events.length}`);
    }
    if (events.length === 0) return [];
    this.batches.push({ events: [...events], afterSeq, inbox: inboxIds.map((id, i) => ({ id, seq: afterSeq + 1 + i })) });
    if (this.sideEffects > 0) this.kick();
    return events.map((event, i) => ({ ...event, seq: afterSeq + 1 + i }) as EngineEvent);
  }

  /** Adds to the ledger change the next flush applies. */
  changeLedger(change: Partial<Omit<LedgerChange, 'entries'>> & { entries?: LedgerEntry[] }): void {
    this.throwIfBroken();
    const l = this.ledger;
    l.reservedTokens += change.reservedTokens ?? 0;
    l.reservedCostMicros += change.reservedCostMicros ?? 0;
    l.spentTokens += change.spentTokens ?? 0;
    l.spentCostMicros += change.spentCostMicros ?? 0;
    l.calls += change.calls ?? 0;
    l.entries.push(...(change.entries ?? []));
    l.assumesUnlimited ||= change.assumesUnlimited ?? false;
  }

  /**
   * Runs a statement that must see everything buffered so far and commit with what follows (a
   * ledger check): opens a transaction, writes the buffer into it, runs the statement there.
   */
  checked(statement: Statement): Promise<pg.QueryResult> {
    return this.serial(async () => {
      const client = await this.open();
      await this.write(client);
      return this.run(client, statement);
    });
  }

  /** A read: on the open transaction if there is one (a session holding a connection never waits for a second), else on the pool. */
  query(statement: Statement): Promise<pg.QueryResult> {
    return this.serial(() => (this.client ? this.run(this.client, statement) : this.pool.query(statement)));
  }

  /** This unit as a {@link Queryable} for repository functions. */
  get reader(): Queryable {
    return { query: (statement: Statement) => this.query(statement) };
  }

  /** Writes the buffer and commits; runs the live-bus hook once durable. Throws CONFLICT when fenced off. */
  flush(): Promise<void> {
    return this.serial(async () => {
      if (!this.client) return this.write(this.pool);
      const client = this.client;
      await this.write(client);
      try {
        await client.query('COMMIT');
      } catch (error) {
        await this.abandon(error);
        throw error;
      }
      this.client = null;
      this.release(client);
      this.runHooks();
    });
  }

  /**
   * Runs `effect` (a model call, a tool) with what the session buffered before it written first.
   * By default the effect waits until that write is committed: nothing outside Postgres may
   * depend on an event that is not durable. An effect that may safely happen twice (`repeatable`:
   * an idempotent tool; a model call with no limit to pre-authorise) need not wait: it starts at
   * once and the buffer is written in the background from the next turn of the event loop — so
   * an effect that answers at once lets its events ride with the next write (group commit), and a
   * slow one (a real model call) has them durable and visible within a commit. At most
   * {@link MAX_AHEAD} such effects start ahead of the last commit. If a background write is
   * refused (fenced off), the next append or flush fails.
   * Appends made while an effect runs (streamed deltas) are written at once.
   */
  async sideEffect<T>(effect: () => Promise<T>, options: { repeatable?: boolean } = {}): Promise<T> {
    if (!options.repeatable) {
      await this.flush();
      this.ahead = 0;
    } else {
      this.throwIfBroken();
      if (this.ahead >= MAX_AHEAD) {
        await this.flush();
        this.ahead = 0;
      }
      this.ahead++;
      setImmediate(() => this.kick());
    }
    this.sideEffects++;
    try {
      return await effect();
    } finally {
      this.sideEffects--;
    }
  }

  /**
   * Starts writing the buffer in the background unless a write is already running; when it is
   * done, writes whatever was buffered meanwhile. A failure breaks the unit (the next append or
   * flush throws it).
   */
  private kick(): void {
    if (this.background || this.failure || !this.pending()) return;
    this.background = this.flush().then(
      () => {
        this.background = null;
        if (!this.pending()) this.ahead = 0;
        this.kick();
      },
      () => {
        this.background = null;
      },
    );
  }

  private pending(): boolean {
    return this.batches.length > 0 || this.ledger.entries.length > 0 || this.ledger.calls !== 0;
  }

  /** Waits until every write queued so far has finished (successfully or not). */
  async idle(): Promise<void> {
    for (;;) {
      const tail = this.tail;
      await tail.catch(() => undefined);
      // A write queued from a callback of the last one (a delta writer's chain) lands next tick.
      await new Promise((resolve) => setImmediate(resolve));
      if (tail === this.tail) return;
    }
  }

  /** Drops the buffer and rolls back an open transaction (after a failed drive). */
  discard(): Promise<void> {
    this.batches = [];
    this.ledger = noChange();
    this.pendingHook = null;
    return this.serial(async () => {
      if (!this.client) return;
      const client = this.client;
      this.client = null;
      try {
        await client.query('ROLLBACK');
        this.release(client);
      } catch (error) {
        this.release(client, error);
      }
    }, { evenIfBroken: true });
  }

  private pendingHook: DurableAppend | null = null;

  /** Writes the buffer (one statement) on `db`; in autocommit the hook runs at once. */
  private async write(db: Queryable): Promise<void> {
    const batches = this.batches;
    const ledger = this.ledger;
    const ledgerChanged = ledger.entries.length > 0 || ledger.calls !== 0;
    if (batches.length === 0 && !ledgerChanged) return;
    this.batches = [];
    this.ledger = noChange();
    const events = batches.flatMap((b) => b.events);
    const afterSeq = batches[0]?.afterSeq ?? (await this.lastSeq(db));
    const projection = projectBatch(events);
    const { lease } = this.options;
    const statement = {
      name: 'looplane_flush_v1',
      text: FLUSH_SQL,
      values: [
        lease.sessionId,
        lease.owner,
        lease.version,
        afterSeq,
        events.length,
        `[${events.map((e) => `{"t":${JSON.stringify(e.type)},"v":${e.v},"a":${JSON.stringify(e.at)},"p":${payloadText(e.payload)}}`).join(',')}]`,
        this.options.leaseTtlMs,
        projection.finished?.status ?? null,
        projection.finished?.result ?? null,
        projection.finished?.error ?? null,
        projection.started,
        projection.spentTokens,
        projection.spentCostMicros,
        projection.toolCalls,
        JSON.stringify(batches.flatMap((b) => b.inbox)),
        ledgerChanged
          ? JSON.stringify({ rt: ledger.reservedTokens, rc: ledger.reservedCostMicros, st: ledger.spentTokens, sc: ledger.spentCostMicros, calls: ledger.calls, entries: ledger.entries })
          : null,
        ledger.assumesUnlimited,
      ],
    };
    const result = await this.run(db, statement);
    if (result.rowCount !== events.length || (events.length === 0 && !(await this.stillHeld(db, ledger.assumesUnlimited)))) {
      const error = await this.conflict(db, afterSeq);
      await this.abandon(error);
      throw error;
    }
    if (events.length > 0) {
      const eventNo = Math.max(...result.rows.map((row: { eventNo: string }) => Number(row.eventNo)));
      const finished = projection.finished?.status ?? null;
      const last = events[events.length - 1]!;
      this.pendingHook = { runId: lease.runId, sessionId: lease.sessionId, eventNo, type: last.type, finished: this.pendingHook?.finished ?? finished };
    }
    if (db === this.pool) this.runHooks();
  }

  private runHooks(): void {
    const hook = this.pendingHook;
    this.pendingHook = null;
    if (hook) this.options.onDurable?.(hook);
  }

  private async run(db: Queryable, statement: Statement): Promise<pg.QueryResult> {
    try {
      return await db.query(statement);
    } catch (error) {
      if (db !== this.pool || this.client) await this.abandon(error);
      else this.failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  private async lastSeq(db: Queryable): Promise<number> {
    const found = await db.query({ name: 'looplane_last_seq_v1', text: `SELECT "lastSeq" FROM "Session" WHERE id = $1`, values: [this.lease.sessionId] });
    return (found.rows[0] as { lastSeq: number } | undefined)?.lastSeq ?? 0;
  }

  /** For a flush without events (nothing returned): did its fence hold? */
  private async stillHeld(db: Queryable, assumesUnlimited: boolean): Promise<boolean> {
    const found = await db.query({ name: 'looplane_flush_diagnosis_v1', text: FLUSH_DIAGNOSIS_SQL, values: [this.lease.sessionId] });
    const row = found.rows[0] as { leaseOwner: string | null; leaseVersion: number; live: boolean | null; limited: boolean } | undefined;
    return !!row && row.leaseOwner === this.lease.owner && row.leaseVersion === this.lease.version && !!row.live && !(assumesUnlimited && row.limited);
  }

  /** Explains a fenced-off flush (slow path only). */
  private async conflict(db: Queryable, afterSeq: number): Promise<AppError> {
    const { lease } = this.options;
    const found = await db.query({ name: 'looplane_flush_diagnosis_v1', text: FLUSH_DIAGNOSIS_SQL, values: [lease.sessionId] }).catch(() => null);
    const row = found?.rows[0] as { leaseOwner: string | null; leaseVersion: number; live: boolean | null; lastSeq: number; limited: boolean } | undefined;
    if (!row) return new AppError('CONFLICT', `session ${lease.sessionId} is gone or unreadable`);
    if (row.leaseOwner !== lease.owner || row.leaseVersion !== lease.version || !row.live) {
      return new AppError('CONFLICT', `lost the lease on session ${lease.sessionId} (held: ${row.leaseOwner ?? 'nobody'} v${row.leaseVersion}, ours: v${lease.version})`);
    }
    if (row.lastSeq !== afterSeq) return new AppError('CONFLICT', `append expected session ${lease.sessionId} to end at seq ${afterSeq}, but it ends at ${row.lastSeq}`);
    return new AppError('CONFLICT', `the run ledger of session ${lease.sessionId} gained a limit while reservations were granted against none`);
  }

  private serial<T>(op: () => Promise<T>, options: { evenIfBroken?: boolean } = {}): Promise<T> {
    const run = async () => {
      if (!options.evenIfBroken) this.throwIfBroken();
      return op();
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  private throwIfBroken(): void {
    if (this.failure) throw new AppError('INTERNAL', `an earlier write of this session failed: ${this.failure.message}`, { cause: this.failure });
  }

  private async open(): Promise<PgClient> {
    if (this.client) return this.client;
    const client = await this.pool.connect();
    // A checked-out connection that dies while idle in the transaction (a Postgres restart)
    // reports on the client; unheard, that would crash the process. The next statement fails.
    client.on('error', ignoreIdleError);
    try {
      await client.query('BEGIN');
    } catch (error) {
      this.release(client, error);
      throw error;
    }
    this.client = client;
    return client;
  }

  private release(client: PgClient, error?: unknown): void {
    client.off('error', ignoreIdleError);
    client.release(error === undefined ? undefined : error instanceof Error ? error : new Error(String(error)));
  }

  private async abandon(error: unknown): Promise<void> {
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.batches = [];
    this.ledger = noChange();
    this.pendingHook = null;
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.query('ROLLBACK').catch(() => undefined);
    this.release(client, this.failure);
  }
}
