import type { PgPool } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { expiredRuns, hasPack, packChain, runRemoval } from './pack-index';
import type { PackEntry, RemovalNote, WorkspaceStore } from './workspace-store';

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix of every object (default `looplane/`). */
  prefix: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, s3rver); unset: AWS. Path-style addressing is used when set. */
  endpoint?: string;
  /** Unset: the AWS SDK's default provider chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** `LOOPLANE_WORKSPACE_STORE=s3`: pack bytes in an S3-compatible bucket, the index in Postgres. */
export class S3WorkspaceStore implements WorkspaceStore {
  readonly driver = 's3' as const;

  constructor(
    private readonly pool: PgPool,
    private readonly options: S3StoreOptions,
  ) {}

  put(_entry: Omit<PackEntry, 'bytes'>, _pack: Buffer): Promise<void> {
    throw new AppError('INTERNAL', `the s3 workspace store is not built yet (${this.options.bucket})`);
  }

  chain(runId: string, commit: string): Promise<PackEntry[]> {
    return packChain(this.pool, runId, commit);
  }

  has(runId: string, commit: string): Promise<boolean> {
    return hasPack(this.pool, runId, commit);
  }

  read(_entry: PackEntry): Promise<Buffer> {
    throw new AppError('INTERNAL', 'the s3 workspace store is not built yet');
  }

  removeRun(_runId: string, _reason: string): Promise<void> {
    throw new AppError('INTERNAL', 'the s3 workspace store is not built yet');
  }

  removal(runId: string): Promise<RemovalNote | null> {
    return runRemoval(this.pool, runId);
  }

  expiredRuns(endedBefore: Date, limit: number): Promise<string[]> {
    return expiredRuns(this.pool, endedBefore, limit);
  }
}
