import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import {
  hasWorkspacePack,
  insertWorkspacePack,
  removeRunWorkspace,
  runsWithExpiredWorkspaces,
  workspacePackChain,
  workspaceRemoval,
  type PgPool,
} from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { PackEntry, RemovalNote, WorkspaceStore } from './workspace-store';

/** Where and how the s3 driver reaches its bucket (built from the env by `createWorkspaceStore`). */
export interface S3StoreOptions {
  bucket: string;
  /** Key prefix of every object (default `looplane/`). */
  prefix: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, s3rver); unset: AWS. Path-style addressing is used when set. */
  endpoint?: string;
  /** Unset: the AWS SDK's default provider chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Attempts per S3 request, retries included (the SDK's default, 3, when unset). */
  maxAttempts?: number;
}

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/**
 * `LOOPLANE_WORKSPACE_STORE=s3`: pack bytes in an S3-compatible bucket, one object per commit at
 * `${prefix}runs/${runId}/packs/${commit}.pack`; the index stays in Postgres (@looplane/db's pack index) so
 * chains and retention are queries, not listings.
 *
 * Durability comes from the order of writes: the index row is inserted only after PutObject has
 * succeeded, so a row (and so any event naming its commit) always has its bytes. A crash in between
 * leaves an object no row names; `removeRun` lists the run's prefix, so such orphans go with it.
 */
export class S3WorkspaceStore implements WorkspaceStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(
    private readonly pool: PgPool,
    private readonly options: S3StoreOptions,
  ) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
      // The SDK's default (since 3.729) adds CRC32 checksum headers to every upload and validates
      // them on download; S3-compatible servers that predate those headers reject or mangle such
      // requests. Checksums only where the API requires them (DeleteObjects) works everywhere.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(entry: Omit<PackEntry, 'bytes'>, pack: Buffer): Promise<void> {
    // Already indexed means already durable: skip the upload (a retried tool call re-saves).
    if (await hasWorkspacePack(this.pool, entry.runId, entry.commit)) return;
    const key = this.packKey(entry.runId, entry.commit);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: pack,
          ContentLength: pack.length,
          ContentType: 'application/x-git-packed-objects',
        }),
      );
    } catch (error) {
      throw new AppError('INTERNAL', `could not store the pack of commit ${entry.commit} (run ${entry.runId}) at ${this.where(key)}: ${describe(error)}`, {
        cause: error,
      });
    }
    // Only now may the commit be named. If a concurrent put of this commit indexed first, its row
    // stays (insertWorkspacePack does nothing) and both wrote the same key; should the two packs differ in
    // size, read's length check reports it rather than applying a mismatched pack.
    await insertWorkspacePack(this.pool, { ...entry, bytes: pack.length }, this.driver);
  }

  chain(runId: string, commit: string): Promise<PackEntry[]> {
    return workspacePackChain(this.pool, runId, commit);
  }

  has(runId: string, commit: string): Promise<boolean> {
    return hasWorkspacePack(this.pool, runId, commit);
  }

  async read(entry: PackEntry): Promise<Buffer> {
    const key = this.packKey(entry.runId, entry.commit);
    let pack: Buffer;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      pack = object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      const missing = error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
      const why = missing ? 'is missing' : `could not be read (${describe(error)})`;
      throw new AppError('INTERNAL', `the stored pack of commit ${entry.commit} (run ${entry.runId}) at ${this.where(key)} ${why}`, { cause: error });
    }
    // A short object means a truncated or foreign write; applying it would fail later, less clearly.
    if (pack.length !== entry.bytes)
      throw new AppError(
        'INTERNAL',
        `the stored pack of commit ${entry.commit} (run ${entry.runId}) at ${this.where(key)} has ${pack.length} bytes, ${entry.bytes} expected`,
      );
    return pack;
  }

  async removeRun(runId: string, reason: string): Promise<void> {
    // Index first: once the rows are gone no reader looks for the objects, so deleting them next
    // cannot break a restore; a crash in between leaves only unreferenced objects (a later
    // removeRun of the run, being idempotent, still lists and deletes them).
    await removeRunWorkspace(this.pool, runId, reason);
    const prefix = `${this.options.prefix}runs/${runId}/`;
    let token: string | undefined;
    do {
      // Listing rather than deleting indexed keys: orphans of crashed puts have no row.
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, MaxKeys: DELETE_BATCH, ...(token ? { ContinuationToken: token } : {}) }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length > 0) await this.deleteKeys(keys);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  removal(runId: string): Promise<RemovalNote | null> {
    return workspaceRemoval(this.pool, runId);
  }

  expiredRuns(endedBefore: Date, limit: number): Promise<string[]> {
    return runsWithExpiredWorkspaces(this.pool, endedBefore, limit);
  }

  /** Closes the client's sockets (for tests and shutdown; the store is unusable after). */
  close(): void {
    this.client.destroy();
  }

  private async deleteKeys(keys: { Key: string }[]): Promise<void> {
    for (let at = 0; at < keys.length; at += DELETE_BATCH) {
      const batch = keys.slice(at, at + DELETE_BATCH);
      const result = await this.client.send(new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: batch, Quiet: true } }));
      // DeleteObjects answers 200 even when some keys failed; those come back in Errors.
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new AppError(
          'INTERNAL',
          `could not delete ${failed.length} object(s) from s3://${this.options.bucket}, e.g. ${first.Key}: ${first.Code ?? 'error'} ${first.Message ?? ''}`.trim(),
        );
      }
    }
  }

  private packKey(runId: string, commit: string): string {
    return `${this.options.prefix}runs/${runId}/packs/${commit}.pack`;
  }

  private where(key: string): string {
    return `s3://${this.options.bucket}/${key}`;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
