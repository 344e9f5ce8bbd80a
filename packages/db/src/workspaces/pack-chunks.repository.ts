import { withClient, type PgPool, type Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { insertWorkspacePack, type WorkspacePackRow } from './pack-index.repository';

/** The bytes of packs the postgres store driver holds (`WorkspacePackChunk`), in chunks. */

/** Pack bytes are stored in chunks of this size (one bytea value each). */
const CHUNK_BYTES = 4 * 1024 * 1024;

const CHUNK_INSERT_SQL = namedQuery({
  name: 'looplane_workspace_chunk_insert_v2',
  params: { run_id: param.text, commit: param.text, idx: param.int, data: param.bytea },
  text: `INSERT INTO "WorkspacePackChunk" ("runId", "commit", "idx", "data") VALUES (:run_id, :commit, :idx, :data)`,
});

const CHUNK_READ_SQL = namedQuery({
  name: 'looplane_workspace_chunk_read_v2',
  params: { run_id: param.text, commit: param.text },
  text: `SELECT "data" FROM "WorkspacePackChunk" WHERE "runId" = :run_id AND "commit" = :commit ORDER BY "idx"`,
}).returns<{ data: Buffer }>();

/**
 * Stores a pack in Postgres: the index row and its chunks commit in one transaction, so a pack is
 * either whole and listed, or absent. A commit stored already is left as it is (no chunk written).
 */
export async function storeChunkedPack(pool: PgPool, entry: Omit<WorkspacePackRow, 'bytes'>, pack: Buffer): Promise<void> {
  await withClient(pool, async (client) => {
    await client.query('BEGIN');
    // `storage` names the driver that holds the bytes: these chunks.
    const inserted = await insertWorkspacePack(client, { ...entry, bytes: pack.length }, 'postgres');
    if (inserted) {
      for (let idx = 0, at = 0; at < pack.length || idx === 0; idx++, at += CHUNK_BYTES) {
        await client.query(CHUNK_INSERT_SQL.bind({ run_id: entry.runId, commit: entry.commit, idx, data: pack.subarray(at, at + CHUNK_BYTES) }));
      }
    }
    await client.query('COMMIT');
  });
}

/** A stored pack's bytes, its chunks joined in order (empty when none is stored). */
export async function readChunkedPack(db: Queryable, runId: string, commit: string): Promise<Buffer> {
  const rows = rowsOf(CHUNK_READ_SQL, await db.query(CHUNK_READ_SQL.bind({ run_id: runId, commit })));
  return Buffer.concat(rows.map((row) => row.data));
}
