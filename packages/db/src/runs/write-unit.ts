import type { EngineEvent, NewEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type pg from 'pg';
import { LAST_SEQ_SQL } from './append-sql';
import { flushItems, type FlushBatcher, type FlushOutcome } from './flush-batcher';
import { beginTransaction, releaseTransaction, type PgClient, type PgPool, type Queryable } from './pg-pool';
import { rowsOf } from '../sql/named-query';
import type { AuditEntry } from '../audit/audit.repository';
import { AuditQueue, type UnitAudit } from './unit-audit';
import { WriteBuffer, type DurableAppend, type SessionLease } from './write-buffer';
import { explainFence, isLedgerOverLimit, refusedData, refusedFinishItem, writeAlone, writeBeforeRefusedReservation } from './write-failures';

export type { UnitAudit } from './unit-audit';

/** A prepared statement: `name` makes Postgres parse and plan it once per connection. */
export interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}

export interface WriteUnitOptions {
  lease: SessionLease;
  /** Lease length; a flush extends the lease when less than half of it is left. */
  leaseTtlMs: number;
  /** Called after each flush that wrote events, once durable. */
  onDurable?: (append: DurableAppend) => void;
  /** The worker's group commit; without it every flush is its own statement. */
  batcher?: FlushBatcher;
  /** The worker's audit chains, for rows that commit with the session's events ({@link WriteUnit.audit}). */
  audit?: UnitAudit;
}

/** Repeatable side effects that may run before the events preceding them are committed. */
const MAX_AHEAD = 4;

/**
 * One session's writes, grouped by side effect. Appends and ledger changes are buffered in memory
 * and written by one statement (the flush: fence, events, projection, ledger, inbox; see
 * append-sql.ts), through the worker's group commit, which puts the flushes of many sessions in
 * one statement and one commit.
 *
 * When: before a side effect that must not happen twice (a non-idempotent tool; a model call whose
 * spend is pre-authorised against a limit) the buffer is written and committed first, so nothing
 * outside Postgres depends on an event that is not durable. A side effect that may happen twice
 * (an idempotent tool, a model call on an unlimited budget) starts at once and the buffer is
 * written in the background while it runs (after a crash it simply happens again). The end of a
 * drive writes whatever is left. While a side effect runs, appends (streamed deltas) are written
 * at once so watchers see them live. A crash loses at most the buffer: a valid prefix of the log,
 * with the ledger changes that belong to it (they commit in the same statement as the events that
 * record them).
 *
 * A ledger check that needs an answer (a reservation against a limit) opens a transaction that the
 * next flush commits, so the reservation and its event still commit together. If a write fails,
 * the unit is broken: the caller's in-memory state may be ahead of the database and must be
 * reloaded (the worker retries the job).
 */
export class WriteUnit {
  private readonly buffer = new WriteBuffer();
  private client: PgClient | null = null;
  private sideEffects = 0;
  /** The background write started by {@link kick}, if one is running. */
  private background: Promise<void> | null = null;
  /** Repeatable effects started since everything buffered was last durable. */
  private ahead = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private failure: Error | null = null;
  /** Audit rows waiting for the next flush. */
  private readonly audits: AuditQueue;

  constructor(
    private readonly pool: PgPool,
    private readonly options: WriteUnitOptions,
  ) {
    this.audits = new AuditQueue(options.audit);
  }

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
    const stored = this.buffer.push(this.lease.sessionId, events, afterSeq, inboxIds);
    if (this.sideEffects > 0 && stored.length > 0) this.kick();
    return stored;
  }

  /**
   * An audit row that commits with the events buffered next (a policy decision's row, with its
   * `policy.decided` and `tool.started`): the next flush on the pool carries it, chained onto the
   * team's tail this worker last wrote, and writes it in the same statement under the team's
   * chain lock. Where that cannot be (no tail known yet, the tail moved meanwhile, a flush inside
   * a transaction, nothing else to flush, a failed write) the row takes the locked path instead.
   * Resolves once the row is in the chain, whichever way it went: a call waits for this before it
   * runs. Every row handed over is written, even when the session's own write fails.
   */
  audit(entry: AuditEntry): Promise<void> {
    return this.audits.push(entry);
  }

  /**
   * Makes the queued audit rows durable now (a call about to run waits for its row): by a flush
   * that carries them with whatever is buffered, or, while a transaction is open (which only its
   * owner may commit), through the locked path.
   */
  settleAudit(): Promise<void> {
    if (this.audits.empty) return Promise.resolve();
    return this.serial(async () => {
      if (this.audits.empty) return;
      if (this.client) this.audits.handOff();
      else await this.write(this.pool);
    });
  }

  /**
   * Whether a reservation may be granted ahead of its check ({@link reserveAhead}): not while a
   * transaction is open.
   */
  get canReserveAhead(): boolean {
    return this.client === null && this.failure === null;
  }

  /**
   * A reservation granted on room the caller knew of, without a round trip: it commits with the
   * events that record it (the flush before the model call it pays for), and that statement checks
   * the limits under the ledger's lock. If it finds no room, nothing of that flush is written; the
   * unit writes what it held before the reservation and fails with CONFLICT, and the session goes
   * on from its log (the worker retries the job), reserving the checked way.
   */
  reserveAhead(change: Parameters<WriteBuffer['reserveAhead']>[0]): void {
    this.throwIfBroken();
    this.buffer.reserveAhead(change);
  }

  /** Adds to the ledger change the next flush applies. */
  changeLedger(change: Parameters<WriteBuffer['changeLedger']>[0]): void {
    this.throwIfBroken();
    this.buffer.changeLedger(change);
  }

  /**
   * Runs a statement that must see everything buffered so far and commit with what follows (a
   * ledger check): opens a transaction, writes the buffer into it, runs the statement there.
   */
  checked(statement: Statement): Promise<pg.QueryResult> {
    return this.serial(async () => {
      // A reservation granted ahead of its check is written on its own first: its check may fail
      // the statement, which inside the transaction would take the transaction with it.
      if (!this.client && this.buffer.reservesAhead) await this.write(this.pool);
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
      releaseTransaction(client);
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
    return !this.buffer.empty;
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
    this.buffer.clear();
    this.pendingHook = null;
    this.audits.handOff();
    return this.serial(
      async () => {
        if (!this.client) return;
        const client = this.client;
        this.client = null;
        try {
          await client.query('ROLLBACK');
          releaseTransaction(client);
        } catch (error) {
          releaseTransaction(client, error);
        }
      },
      { evenIfBroken: true },
    );
  }

  private pendingHook: DurableAppend | null = null;

  /**
   * Writes the buffer: through the worker's group commit when autocommitting (with a batcher),
   * else as a one-session flush statement on `db`. In autocommit the hook runs at once.
   */
  private async write(db: Queryable): Promise<void> {
    if (this.buffer.empty) {
      this.audits.handOff();
      return;
    }
    const afterSeq = this.buffer.afterSeq ?? (await this.lastSeq(db));
    const { item, events, projection, beforeReservation } = this.buffer.take(this.options.lease, this.options.leaseTtlMs, afterSeq);
    const { lease } = this.options;
    // Carried only by an autocommitted flush: the team's chain lock is then held for one statement.
    const rows = this.audits.takeForFlush(db === this.pool);
    item.audit = rows?.carried ?? null;
    let outcome: FlushOutcome;
    try {
      const batcher = db === this.pool ? this.options.batcher : undefined;
      outcome = batcher ? await batcher.submit(item) : (await flushItems(db, [item]))[0]!;
    } catch (error) {
      rows?.settle(false);
      if (beforeReservation && isLedgerOverLimit(error)) {
        const broken = await writeBeforeRefusedReservation(this.pool, beforeReservation(), lease, this.options.onDurable, error);
        await this.abandon(broken);
        throw broken;
      }
      const refused = refusedData(error);
      await this.abandon(refused);
      // Refused for its data, it would be refused on every retry, each paying for the model call
      // again: the session ends here, its run.finished written in place of the refused events. If
      // that fails too, the job's retries and last attempt end the session as before.
      if (refused !== error) {
        const finish = refusedFinishItem(item, projection, refused as AppError);
        await writeAlone(this.pool, finish, lease, this.options.onDurable, { type: 'run.finished', finished: 'failed' }).catch(() => undefined);
      }
      throw refused;
    }
    rows?.settle(outcome?.audited ?? false);
    if (outcome === null) {
      const error = await explainFence(db, lease, afterSeq, item.assumesUnlimited);
      await this.abandon(error);
      throw error;
    }
    if (events.length > 0) {
      const finished = projection.finished?.status ?? null;
      const last = events[events.length - 1]!;
      this.pendingHook = {
        runId: lease.runId,
        sessionId: lease.sessionId,
        eventNo: outcome.lastEventNo,
        type: last.type,
        finished: this.pendingHook?.finished ?? finished,
      };
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
    const found = await db.query(LAST_SEQ_SQL.bind({ session_id: this.lease.sessionId }));
    return rowsOf(LAST_SEQ_SQL, found)[0]?.lastSeq ?? 0;
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
    if (!this.failure) return;
    // The failure's own code (CONFLICT for a lost lease) decides what the job does, whichever
    // write meets it first: a flush in the background, or the next call on the unit.
    const code = this.failure instanceof AppError ? this.failure.code : 'INTERNAL';
    throw new AppError(code, `an earlier write of this session failed: ${this.failure.message}`, { cause: this.failure });
  }

  private async open(): Promise<PgClient> {
    this.client ??= await beginTransaction(this.pool);
    return this.client;
  }

  private async abandon(error: unknown): Promise<void> {
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.buffer.clear();
    this.pendingHook = null;
    // A decision's row is written even when the session's events are not (the call never runs).
    this.audits.handOff();
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.query('ROLLBACK').catch(() => undefined);
    releaseTransaction(client, this.failure);
  }
}
