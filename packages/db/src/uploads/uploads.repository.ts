import { z } from 'zod';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * Uploaded archives that seed a run's workspace (`Upload`). An upload no run has used yet expires
 * at `expiresAt` (the worker's sweep deletes it); once a run used it (`usedAt`), it never expires,
 * so every run it seeded can be replayed, forked or resumed from it. Timestamps are compared on
 * the database's clock (UTC), and read back as epoch milliseconds so node-postgres and Prisma's
 * raw queries give the same numbers.
 */

/** An upload's metadata (its bytes are read apart, by {@link uploadData}). */
export interface UploadRecord {
  id: string;
  teamId: string;
  createdById: string | null;
  createdByTokenId: string | null;
  filename: string;
  format: 'tar' | 'tar.gz' | 'zip';
  /** Size of the archive as uploaded. */
  bytes: number;
  /** Entries of the tree it unpacks to, and their bytes. */
  files: number;
  unpackedBytes: number;
  /** Hex SHA-256 of the archive's bytes. */
  sha256: string;
  createdAt: Date;
  /** When it is deleted unless a run uses it first; null once a run has used it (it is kept). */
  expiresAt: Date | null;
  usedAt: Date | null;
}

/** A new upload: its checked metadata, its bytes, and how long it waits for a run. */
export interface NewUpload {
  /** A cuid, made by the caller (the API's id generator). */
  id: string;
  teamId: string;
  createdById: string | null;
  createdByTokenId: string | null;
  filename: string;
  format: UploadRecord['format'];
  bytes: number;
  files: number;
  unpackedBytes: number;
  sha256: string;
  data: Uint8Array;
  /** Milliseconds from now until it expires if no run uses it. */
  ttlMs: number;
}

const epoch = z.number().transform((ms) => new Date(ms));
const recordSchema = z
  .object({
    id: z.string(),
    teamId: z.string(),
    createdById: z.string().nullable(),
    createdByTokenId: z.string().nullable(),
    filename: z.string(),
    format: z.enum(['tar', 'tar.gz', 'zip']),
    bytes: z.number(),
    files: z.number(),
    unpackedBytes: z.number(),
    sha256: z.string(),
    createdAtMs: epoch,
    expiresAtMs: epoch,
    usedAtMs: epoch.nullable(),
  })
  .transform(({ createdAtMs, expiresAtMs, usedAtMs, ...row }) => ({
    ...row,
    createdAt: createdAtMs,
    expiresAt: usedAtMs === null ? expiresAtMs : null,
    usedAt: usedAtMs,
  }));

const NOW = `(statement_timestamp() AT TIME ZONE 'UTC')`;
const COLUMNS = `
  id, "teamId", "createdById", "createdByTokenId", filename, format, bytes, files, "unpackedBytes"::float8 AS "unpackedBytes", sha256,
  (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAtMs",
  (extract(epoch FROM "expiresAt") * 1000)::float8 AS "expiresAtMs",
  (extract(epoch FROM "usedAt") * 1000)::float8 AS "usedAtMs"`;
/** Rows a team may still use: not expired (a used upload never expires). */
const LIVE = `("usedAt" IS NOT NULL OR "expiresAt" > ${NOW})`;

const INSERT_SQL = namedQuery({
  name: 'looplane_upload_insert_v1',
  params: {
    id: param.text,
    team_id: param.text,
    created_by_id: param.nullableText,
    created_by_token_id: param.nullableText,
    filename: param.text,
    format: param.text,
    bytes: param.int,
    files: param.int,
    unpacked_bytes: param.bigint,
    sha256: param.text,
    data: param.bytea,
    ttl_ms: param.bigint,
  },
  text: `
INSERT INTO "Upload" (id, "teamId", "createdById", "createdByTokenId", filename, format, bytes, files, "unpackedBytes", sha256, data, "createdAt", "expiresAt")
VALUES (:id, :team_id, :created_by_id, :created_by_token_id, :filename, :format, :bytes, :files, :unpacked_bytes, :sha256, :data,
        ${NOW}, ${NOW} + :ttl_ms * interval '1 millisecond')
RETURNING ${COLUMNS}`,
});

/** Stores a checked upload; its metadata as stored. */
export async function insertUpload(db: Queryable, upload: NewUpload): Promise<UploadRecord> {
  const query = INSERT_SQL.bind({
    id: upload.id,
    team_id: upload.teamId,
    created_by_id: upload.createdById,
    created_by_token_id: upload.createdByTokenId,
    filename: upload.filename,
    format: upload.format,
    bytes: upload.bytes,
    files: upload.files,
    unpacked_bytes: upload.unpackedBytes,
    sha256: upload.sha256,
    data: upload.data,
    ttl_ms: upload.ttlMs,
  });
  return recordSchema.parse((await db.query(query)).rows[0]);
}

const FOR_TEAM_SQL = namedQuery({
  name: 'looplane_upload_for_team_v1',
  params: { team_id: param.text, upload_id: param.text },
  text: `SELECT ${COLUMNS} FROM "Upload" WHERE id = :upload_id AND "teamId" = :team_id AND ${LIVE}`,
});

/** An upload of the team's; null when there is none, it is another team's, or it expired unused. */
export async function uploadForTeam(db: Queryable, teamId: string, uploadId: string): Promise<UploadRecord | null> {
  const row = (await db.query(FOR_TEAM_SQL.bind({ team_id: teamId, upload_id: uploadId }))).rows[0];
  return row === undefined ? null : recordSchema.parse(row);
}

// The condition is re-read under the row's lock, so a sweep deleting it and a claim keeping it
// cannot both win: whichever commits second sees the other's result.
const CLAIM_SQL = namedQuery({
  name: 'looplane_upload_claim_v1',
  params: { team_id: param.text, upload_id: param.text },
  text: `
UPDATE "Upload" SET "usedAt" = COALESCE("usedAt", ${NOW})
WHERE id = :upload_id AND "teamId" = :team_id AND ${LIVE}
RETURNING ${COLUMNS}`,
});

/**
 * Marks an upload as used by a run (the first use's time is kept), so it no longer expires. Any
 * number of runs may use one upload. Null, and nothing changed, when {@link uploadForTeam} would
 * give null. Meant for the transaction that creates the run.
 */
export async function claimUploadForRun(db: Queryable, teamId: string, uploadId: string): Promise<UploadRecord | null> {
  const row = (await db.query(CLAIM_SQL.bind({ team_id: teamId, upload_id: uploadId }))).rows[0];
  return row === undefined ? null : recordSchema.parse(row);
}

const DATA_SQL = namedQuery({
  name: 'looplane_upload_data_v1',
  params: { team_id: param.text, upload_id: param.text },
  text: `SELECT data FROM "Upload" WHERE id = :upload_id AND "teamId" = :team_id AND ${LIVE}`,
}).returns<{ data: Uint8Array }>();

/** The archive's bytes, for the worker that seeds a run's workspace from it; null as {@link uploadForTeam}. */
export async function uploadData(db: Queryable, teamId: string, uploadId: string): Promise<Buffer | null> {
  const row = rowsOf(DATA_SQL, await db.query(DATA_SQL.bind({ team_id: teamId, upload_id: uploadId })))[0];
  if (row === undefined) return null;
  // node-postgres gives a Buffer, Prisma's raw queries a Uint8Array: the same bytes either way.
  return Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
}

const DELETE_EXPIRED_SQL = namedQuery({
  name: 'looplane_upload_delete_expired_v1',
  params: { now_ms: param.bigint, batch: param.int },
  text: `
DELETE FROM "Upload" WHERE id IN (
  SELECT id FROM "Upload"
  WHERE "usedAt" IS NULL AND "expiresAt" <= (to_timestamp(:now_ms / 1000.0) AT TIME ZONE 'UTC')
  ORDER BY "expiresAt" LIMIT :batch
) AND "usedAt" IS NULL
RETURNING id, "teamId"`,
}).returns<{ id: string; teamId: string }>();

/**
 * Deletes up to `batch` uploads that expired unused by `now` (oldest first); the ones deleted.
 * An upload a run claims meanwhile is kept (the delete re-checks `usedAt` under the row's lock).
 */
export async function deleteExpiredUploads(db: Queryable, now: Date, batch = 500): Promise<Array<{ id: string; teamId: string }>> {
  return rowsOf(DELETE_EXPIRED_SQL, await db.query(DELETE_EXPIRED_SQL.bind({ now_ms: now.getTime(), batch })));
}
