import { createHash } from 'node:crypto';
import { appendAudit, insertUpload, uploadForTeam, type Db, type UploadRecord } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { inspectArchive } from '@looplane/workspaces';
import type { PrincipalActor } from '../trpc';
import { newId } from '@looplane/db';
import { queryableOf } from '@looplane/db';
import { UPLOAD_TTL_MS, type UploadLimits } from './upload-limits';

/** What the API shows of an upload. */
export type UploadView = Omit<UploadRecord, 'teamId' | 'createdById' | 'createdByTokenId'>;

export interface CreateUploadInput {
  teamId: string;
  /** The name it was sent with; default `upload.<format>`. */
  filename?: string | undefined;
  data: Uint8Array;
}

/** Who uploads: the person (through a token or the dashboard), the token if any, and from where. */
export interface Uploader {
  actor: PrincipalActor;
  tokenId: string | null;
  ip: string | null;
}

/** A stored Upload row is written with its bytes in one statement: give it time past Prisma's 5 s default. */
const STORE_TIMEOUT_MS = 120_000;

function view({ teamId: _team, createdById: _by, createdByTokenId: _token, ...shown }: UploadRecord): UploadView {
  return shown;
}

/**
 * Stores an archive that will seed runs' workspaces: inspected whole first (every rule of
 * `inspectArchive`, within `limits`), so a refused archive stores nothing and the refusal names
 * the first bad entry. The row and its `upload.created` audit row commit together. It expires
 * after 24 hours unless a run uses it (`claimUploadForRun`).
 */
export async function createUpload(db: Db, input: CreateUploadInput, uploader: Uploader, limits: UploadLimits): Promise<UploadView> {
  if (input.data.byteLength === 0) throw new AppError('BAD_REQUEST', 'The archive is empty: send a .tar, .tar.gz or .zip file');
  if (input.data.byteLength > limits.maxBytes) throw new AppError('BAD_REQUEST', `The archive is larger than the limit of ${limits.maxBytes} bytes`);
  const bytes = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  const summary = await inspectArchive(bytes, { filename: input.filename, maxUnpackedBytes: limits.maxUnpackedBytes, maxFiles: limits.maxFiles });
  const filename = input.filename ?? `upload.${summary.format}`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return db.$transaction(
    async (tx) => {
      const record = await insertUpload(queryableOf(tx), {
        id: newId(),
        teamId: input.teamId,
        createdById: uploader.actor.userId,
        createdByTokenId: uploader.tokenId,
        filename,
        format: summary.format,
        bytes: bytes.length,
        files: summary.files,
        unpackedBytes: summary.unpackedBytes,
        sha256,
        data: bytes,
        ttlMs: UPLOAD_TTL_MS,
      });
      await appendAudit(tx, {
        teamId: input.teamId,
        actor: uploader.actor,
        ip: uploader.ip,
        action: 'upload.created',
        targetType: 'upload',
        targetId: record.id,
        data: { filename, format: summary.format, bytes: bytes.length, files: summary.files, unpackedBytes: summary.unpackedBytes, sha256 },
      });
      return view(record);
    },
    { timeout: STORE_TIMEOUT_MS },
  );
}

/** An upload of the team's (metadata only); NOT_FOUND when absent, another team's, or expired unused. */
export async function getUpload(db: Db, teamId: string, uploadId: string): Promise<UploadView> {
  const record = await uploadForTeam(queryableOf(db), teamId, uploadId);
  if (!record) throw new AppError('NOT_FOUND', 'No such upload in this team (an upload no run used expires after 24 hours)');
  return view(record);
}
