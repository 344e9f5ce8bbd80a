import {
  hasWorkspacePack,
  readChunkedPack,
  removeRunWorkspace,
  runsWithExpiredWorkspaces,
  storeChunkedPack,
  workspacePackChain,
  workspaceRemoval,
  type PgPool,
} from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { PackEntry, RemovalNote, WorkspaceStore } from './workspace-store';

/**
 * `LOOPLANE_WORKSPACE_STORE=postgres` (the default): packs live in Postgres next to the events
 * that name them, chunked. The index row and its chunks commit in one transaction, so a pack is
 * either whole and listed, or absent.
 */
export class PostgresWorkspaceStore implements WorkspaceStore {
  readonly driver = 'postgres' as const;

  constructor(private readonly pool: PgPool) {}

  put(entry: Omit<PackEntry, 'bytes'>, pack: Buffer): Promise<void> {
    return storeChunkedPack(this.pool, entry, pack);
  }

  chain(runId: string, commit: string): Promise<PackEntry[]> {
    return workspacePackChain(this.pool, runId, commit);
  }

  has(runId: string, commit: string): Promise<boolean> {
    return hasWorkspacePack(this.pool, runId, commit);
  }

  async read(entry: PackEntry): Promise<Buffer> {
    const pack = await readChunkedPack(this.pool, entry.runId, entry.commit);
    if (pack.length !== entry.bytes)
      throw new AppError('INTERNAL', `the stored pack of commit ${entry.commit} (run ${entry.runId}) has ${pack.length} bytes, ${entry.bytes} expected`);
    return pack;
  }

  removeRun(runId: string, reason: string): Promise<void> {
    return removeRunWorkspace(this.pool, runId, reason);
  }

  removal(runId: string): Promise<RemovalNote | null> {
    return workspaceRemoval(this.pool, runId);
  }

  expiredRuns(endedBefore: Date, limit: number): Promise<string[]> {
    return runsWithExpiredWorkspaces(this.pool, endedBefore, limit);
  }
}
