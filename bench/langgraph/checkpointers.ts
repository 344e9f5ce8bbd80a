// The peer's checkpointers: PostgresSaver on its own database of the same Postgres Looplane uses
// (bench/langgraph/database.ts), MemorySaver, or none. Also what a thread leaves in Postgres,
// measured the same way as Looplane's events.
import { MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { createBenchDatabase } from './database';

export type CheckpointerKind = 'postgres' | 'memory' | 'none';

export interface Checkpointer {
  kind: CheckpointerKind;
  saver: BaseCheckpointSaver | undefined;
  /** Stored bytes of one thread's rows (sum of `pg_column_size` of each row); null without Postgres. */
  threadBytes(threadId: string): Promise<number | null>;
  /** Rows and bytes of one thread per table, every table that has a `thread_id`; null without Postgres. */
  threadStorage(threadId: string): Promise<Record<string, { rows: number; bytes: number }> | null>;
  /** Checkpoints recorded for one thread (rows in `checkpoints`); null without Postgres. */
  checkpointCount(threadId: string): Promise<number | null>;
  close(): Promise<void>;
}

/** A PostgresSaver on `pool`, its tables created (`setup()`), as a user would run it. */
export async function postgresSaver(pool: pg.Pool): Promise<PostgresSaver> {
  const saver = new PostgresSaver(pool);
  await saver.setup();
  return saver;
}

/** A checkpointer of `kind`; for `postgres`, a fresh database and a pool of `poolSize` (20, as in the anchor). */
export async function createCheckpointer(kind: CheckpointerKind, poolSize = 20): Promise<Checkpointer> {
  if (kind !== 'postgres') {
    const saver = kind === 'memory' ? new MemorySaver() : undefined;
    return { kind, saver, threadBytes: async () => null, threadStorage: async () => null, checkpointCount: async () => null, close: async () => undefined };
  }
  const database = await createBenchDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: poolSize });
  const saver = await postgresSaver(pool);
  const count = async (text: string, threadId: string) => Number(((await pool.query(text, [threadId])).rows[0] as { n: string }).n);
  async function threadStorage(threadId: string) {
    // Every row LangGraph keeps for the thread, in every table `setup()` made that is keyed by thread
    // (checkpoints, channel blobs, pending writes in 1.0.5), found rather than listed.
    const found = await pool.query(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'thread_id' ORDER BY table_name`,
    );
    const storage: Record<string, { rows: number; bytes: number }> = {};
    for (const { table_name: table } of found.rows as Array<{ table_name: string }>) {
      const result = await pool.query(
        `SELECT count(*)::bigint AS rows, coalesce(sum(pg_column_size(t.*)), 0)::bigint AS bytes FROM "${table}" t WHERE thread_id = $1`,
        [threadId],
      );
      const row = result.rows[0] as { rows: string; bytes: string };
      storage[table] = { rows: Number(row.rows), bytes: Number(row.bytes) };
    }
    return storage;
  }
  return {
    kind,
    saver,
    async threadBytes(threadId) {
      return Object.values(await threadStorage(threadId)).reduce((a, t) => a + t.bytes, 0);
    },
    threadStorage,
    checkpointCount: (threadId) => count('SELECT count(*)::bigint AS n FROM checkpoints WHERE thread_id = $1', threadId),
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}
