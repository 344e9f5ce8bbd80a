import { withClient, type PgPool } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { expiredRuns, hasPack, insertPack, packChain, removeRunPacks, runRemoval } from './pack-index';
import type { PackEntry, RemovalNote, WorkspaceStore } from './workspace-store';

/** Pack bytes are stored in chunks of this size (one bytea value each). */
const CHUNK_BYTES = 4 * 1024 * 1024;

const CHUNK_SQL = `INSERT INTO "WorkspacePackChunk" ("runId", "commit", "idx", "data") VALUES ($1, $2, $3, $4)`;
const READ_SQL = `SELECT "data" FROM "WorkspacePackChunk" WHERE "runId" = $1 AND "commit" = $2 ORDER BY "idx"`;

/**
 * `LOOPLANE_WORKSPACE_STORE=postgres` (the default): packs live in Postgres next to the events
 * that name them, chunked. The index row and its chunks commit in one transaction, so a pack is
 * either whole and listed, or absent.
 */
export class PostgresWorkspaceStore implements WorkspaceStore {
  readonly driver = 'postgres' as const;

  constructor(private readonly pool: PgPool) {}

  async put(entry: Omit<PackEntry, 'bytes'>, pack: Buffer): Promise<void> {
    await withClient(this.pool, async (client) => {
      await client.query('BEGIN');
      const inserted = await insertPack(client, { ...entry, bytes: pack.length }, this.driver);
      if (inserted) {
        for (let idx = 0, at = 0; at < pack.length || idx === 0; idx++, at += CHUNK_BYTES) {
          await client.query({
            name: 'looplane_workspace_chunk_insert_v1',
            text: CHUNK_SQL,
            values: [entry.runId, entry.commit, idx, pack.subarray(at, at + CHUNK_BYTES)],
          });
        }
      }
      await client.query('COMMIT');
    });
  }

  chain(runId: string, commit: string): Promise<PackEntry[]> {
    return packChain(this.pool, runId, commit);
  }

  has(runId: string, commit: string): Promise<boolean> {
    return hasPack(this.pool, runId, commit);
  }

  async read(entry: PackEntry): Promise<Buffer> {
    const result = await this.pool.query({ name: 'looplane_workspace_chunk_read_v1', text: READ_SQL, values: [entry.runId, entry.commit] });
    const pack = Buffer.concat((result.rows as { data: Buffer }[]).map((row) => row.data));
    if (pack.length !== entry.bytes)
      throw new AppError('INTERNAL', `the stored pack of commit ${entry.commit} (run ${entry.runId}) has ${pack.length} bytes, ${entry.bytes} expected`);
    return pack;
  }

  removeRun(runId: string, reason: string): Promise<void> {
    return removeRunPacks(this.pool, runId, reason);
  }

  removal(runId: string): Promise<RemovalNote | null> {
    return runRemoval(this.pool, runId);
  }

  expiredRuns(endedBefore: Date, limit: number): Promise<string[]> {
    return expiredRuns(this.pool, endedBefore, limit);
  }
}
