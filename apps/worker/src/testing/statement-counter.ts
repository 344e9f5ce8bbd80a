import type { PgClient, PgPool } from '@looplane/db';

/** What a pool sent between two readings. */
export interface StatementCounts {
  /** `query` calls: one message to Postgres and its answer each (a simple query of several statements is one). */
  roundTrips: number;
  /** SQL statements: a simple query of several statements counts each of them. */
  statements: number;
  /**
   * Transactions committed: an explicit COMMIT, or a round trip that ran statements outside an
   * explicit transaction (Postgres commits it on its own, a simple query of several statements as one).
   */
  commits: number;
  /** Those of {@link commits} whose transaction wrote (or row-locked): the ones Postgres waits on a WAL flush for. */
  writeCommits: number;
  rollbacks: number;
  /** `query` calls that failed. */
  failures: number;
}

/** One round trip as the counter saw it: its prepared-statement name or the start of its text. */
interface SentQuery {
  label: string;
  statements: number;
  commits: number;
}

type QueryFn = (...args: unknown[]) => unknown;

/** A connection's explicit transaction block, or a simple query's implicit one. */
interface Transaction {
  open: boolean;
  wrote: boolean;
}

const zero = (): StatementCounts => ({ roundTrips: 0, statements: 0, commits: 0, writeCommits: 0, rollbacks: 0, failures: 0 });

/** `a - b`, field by field. */
export function countsBetween(a: StatementCounts, b: StatementCounts): StatementCounts {
  return {
    roundTrips: a.roundTrips - b.roundTrips,
    statements: a.statements - b.statements,
    commits: a.commits - b.commits,
    writeCommits: a.writeCommits - b.writeCommits,
    rollbacks: a.rollbacks - b.rollbacks,
    failures: a.failures - b.failures,
  };
}

/**
 * The statements of a simple query: split at the semicolons that end them, not those inside a
 * literal ('…', E'…' with its backslash escapes, $tag$…$tag$), a quoted identifier or a comment.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const closeAt = (end: number) => (end < 0 ? sql.length : end);
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'") {
      const escapes = /[eE]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 2] ?? '');
      i++;
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      i = closeAt(sql.indexOf('"', i + 1)) + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      i = closeAt(sql.indexOf('\n', i));
    } else if (c === '/' && sql[i + 1] === '*') {
      i = closeAt(sql.indexOf('*/', i + 2)) + 2;
    } else if (c === '$' && /^\$\w*\$/.test(sql.slice(i)) && !/\w/.test(sql[i - 1] ?? '')) {
      const tag = /^\$\w*\$/.exec(sql.slice(i))![0];
      i = closeAt(sql.indexOf(tag, i + tag.length)) + tag.length;
    } else if (c === ';') {
      statements.push(sql.slice(start, i));
      start = ++i;
    } else i++;
  }
  statements.push(sql.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The statement without its literals, quoted identifiers and comments: what is left are keywords and names. */
function bare(statement: string): string {
  return statement.replace(/\bE'(?:[^'\\]|''|\\.)*'|'(?:[^']|'')*'|"[^"]*"|--[^\n]*|\/\*[\s\S]*?\*\/|\$(\w*)\$[\s\S]*?\$\1\$/g, ' ');
}

/** Whether a statement writes rows or locks them (a locking read also makes its commit wait for the WAL). */
function writes(statement: string): boolean {
  return /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|CREATE|ALTER|DROP|SHARE)\b/i.test(bare(statement));
}

/** The statement's first words, upper case, without leading comments. */
function keyword(statement: string): string {
  return statement
    .replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '')
    .slice(0, 32)
    .toUpperCase();
}

/**
 * Counts every statement a `pg` pool sends: each client the pool hands out (`acquire`, which
 * `pool.query` goes through too) gets its `query` wrapped, once. Attach while no client is checked
 * out (before the runtime starts, or while it is idle): a client already out is seen from its next
 * checkout. Commits follow each connection's transaction state (BEGIN … COMMIT, else autocommit).
 */
export class StatementCounter {
  private counts = zero();
  private sent: SentQuery[] = [];
  private pending = 0;
  private readonly transactions = new WeakMap<object, Transaction>();
  private readonly wrapped = new WeakSet<object>();
  private readonly onAcquire = (client: PgClient) => this.wrap(client);

  constructor(private readonly pool: PgPool) {
    pool.on('acquire', this.onAcquire);
  }

  /** Stops wrapping clients checked out from now on (those wrapped keep counting into this counter). */
  detach(): void {
    this.pool.off('acquire', this.onAcquire);
  }

  /** Queries sent and not answered yet. */
  get inFlight(): number {
    return this.pending;
  }

  /** The counts since the last {@link take}, without starting over. */
  peek(): StatementCounts {
    return { ...this.counts };
  }

  /** The counts since the last {@link take} (or since attaching), and the queries in order; starts over. */
  take(): { counts: StatementCounts; sent: SentQuery[] } {
    const taken = { counts: this.counts, sent: this.sent };
    this.counts = zero();
    this.sent = [];
    return taken;
  }

  private wrap(client: PgClient): void {
    if (this.wrapped.has(client)) return;
    this.wrapped.add(client);
    const original = client.query.bind(client) as QueryFn;
    const counted: QueryFn = (...args) => {
      const settle = this.record(client, args[0]);
      const callback = args.findIndex((a) => typeof a === 'function');
      if (callback >= 0) {
        const done = args[callback] as (error: unknown, ...rest: unknown[]) => void;
        args[callback] = (error: unknown, ...rest: unknown[]) => {
          settle(error);
          done(error, ...rest);
        };
      }
      let result: unknown;
      try {
        result = original(...args);
      } catch (error) {
        settle(error);
        throw error;
      }
      if (callback >= 0) return result;
      // A promise (a plain query) is answered when it settles; a submittable (a cursor) is not followed.
      const then = (result as { then?: unknown } | null)?.then;
      if (typeof then === 'function') (result as PromiseLike<unknown>).then(() => settle(undefined), settle);
      else settle(undefined);
      return result;
    };
    (client as unknown as { query: QueryFn }).query = counted;
  }

  /** Counts one query when it is sent; the returned function marks it answered. */
  private record(client: object, config: unknown): (error: unknown) => void {
    const text = String(typeof config === 'string' ? config : ((config as { text?: unknown } | null)?.text ?? ''));
    const name = typeof config === 'object' && config !== null ? (config as { name?: unknown }).name : undefined;
    const statements = splitStatements(text);
    const transaction = this.transactions.get(client) ?? { open: false, wrote: false };
    // Statements outside a transaction block run as one implicit transaction per simple query.
    const implicit = { open: false, wrote: false };
    let commits = 0;
    let writeCommits = 0;
    const commit = (t: Transaction) => {
      commits++;
      if (t.wrote) writeCommits++;
    };
    for (const statement of statements) {
      const word = keyword(statement);
      if (/^(BEGIN|START TRANSACTION)\b/.test(word)) Object.assign(transaction, { open: true, wrote: false });
      else if (/^(COMMIT|END)\b/.test(word) && !/^COMMIT PREPARED\b/.test(word)) {
        if (transaction.open) commit(transaction);
        transaction.open = false;
      } else if (/^(ROLLBACK|ABORT)\b/.test(word) && !/^ROLLBACK\s+(TO|PREPARED)\b/.test(word)) {
        if (transaction.open) this.counts.rollbacks++;
        transaction.open = false;
      } else {
        const open = transaction.open ? transaction : implicit;
        open.open = true;
        open.wrote ||= writes(statement);
      }
    }
    if (implicit.open) commit(implicit);
    this.transactions.set(client, transaction);
    this.counts.roundTrips++;
    this.counts.statements += statements.length;
    this.counts.commits += commits;
    this.counts.writeCommits += writeCommits;
    const label = typeof name === 'string' ? name : text.replace(/\s+/g, ' ').slice(0, 60);
    this.sent.push({ label, statements: statements.length, commits });
    this.pending++;
    const counts = this.counts;
    let settled = false;
    return (error) => {
      if (settled) return;
      settled = true;
      this.pending--;
      if (error) counts.failures++;
    };
  }
}
