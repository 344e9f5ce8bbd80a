import pg from 'pg';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

/**
 * Anything that runs a query: the pool (autocommit), a client inside a transaction, or a write
 * unit's reader. Repository functions take this and pass one config object.
 */
export interface Queryable {
  query(config: { name?: string; text: string; values?: unknown[] }): Promise<pg.QueryResult>;
}

export interface PgPoolOptions {
  /** Max connections (default 20). A session holds one only between two side effects. */
  max?: number;
  /** Errors of idle connections (a Postgres restart); without a listener they would crash the process. */
  onError?: (error: Error) => void;
  /** Longest wait for a row lock (default 5 s). */
  lockTimeoutMs?: number;
  /** A transaction left open this long is ended by Postgres (default 15 s): a frozen worker cannot pin a session. */
  idleInTransactionMs?: number;
}

/**
 * Runs `work` on a client checked out of the pool. A connection that dies while checked out (a
 * Postgres restart) reports on the client; unheard, that would crash the process, so it is heard
 * and the query in flight fails instead. On failure an open transaction is rolled back and the
 * connection discarded, never handed to the next caller.
 */
export async function withClient<T>(pool: PgPool, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const onIdleError = () => undefined;
  client.on('error', onIdleError);
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onIdleError);
    client.release(failure);
  }
}

/**
 * The runtime's raw node-postgres pool. The worker's hot path (appends, leases, ledgers) uses raw
 * SQL over this pool, not Prisma: one statement per write, prepared once per connection.
 */
export function createPgPool(url: string, options: PgPoolOptions = {}): PgPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    keepAlive: true,
    application_name: 'looplane-runtime',
    // Safety nets: a write unit holds row locks only between two side effects (milliseconds), so
    // a long lock wait or a transaction left idle is a bug; fail it rather than stall every worker.
    // Generic plans: the runtime's statements are key lookups whose best plan never depends on
    // the values, and re-planning the flush statement's CTEs would cost more than running it.
    options: `-c lock_timeout=${options.lockTimeoutMs ?? 5000} -c idle_in_transaction_session_timeout=${options.idleInTransactionMs ?? 15_000} -c plan_cache_mode=force_generic_plan`,
  });
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}

function ignoreIdleError(): void {}

/**
 * A connection of the pool with a transaction begun on it, held until {@link releaseTransaction}.
 * A checked-out connection that dies while idle in the transaction (a Postgres restart) reports on
 * the client; unheard, that would crash the process. The next statement fails instead.
 */
export async function beginTransaction(pool: PgPool): Promise<PgClient> {
  const client = await pool.connect();
  client.on('error', ignoreIdleError);
  try {
    await client.query('BEGIN');
  } catch (error) {
    releaseTransaction(client, error);
    throw error;
  }
  return client;
}

/** Gives a {@link beginTransaction} connection back; with an error, the pool drops it. */
export function releaseTransaction(client: PgClient, error?: unknown): void {
  client.off('error', ignoreIdleError);
  client.release(error === undefined ? undefined : error instanceof Error ? error : new Error(String(error)));
}
