import type { WorkspacePackRow } from '@looplane/db';
/**
 * The store of record for session files. A workspace is a git repository; every commit a tool call
 * makes is stored as one pack: the objects of `commit` that `base` does not reach (every object
 * when `base` is null). Restoring a commit applies its chain of packs (`base` → … → a pack with no
 * base). Local workspace directories on worker hosts are only a cache of this.
 *
 * What must stay true: `put` resolves only once the pack is durable, so an event may name the
 * commit right after (a crash between the two leaves an unreferenced pack, never an event that
 * points at files that exist nowhere).
 */
/** One stored pack: the objects of `commit` that `base` (null: none) does not reach, as the index keeps it. */
export type PackEntry = WorkspacePackRow;

/** Why a run's files are gone (retention). */
export interface RemovalNote {
  removedAt: Date;
  reason: string;
}

export type StoreDriverName = 'postgres' | 's3';

export interface WorkspaceStore {
  readonly driver: StoreDriverName;
  /** Stores a commit's pack; durable when it resolves. Storing a commit already stored is a no-op. */
  put(entry: Omit<PackEntry, 'bytes'>, pack: Buffer): Promise<void>;
  /** The packs that make up `commit`, newest first, down to a self-contained one; [] when the store has no such commit. */
  chain(runId: string, commit: string): Promise<PackEntry[]>;
  /** Whether the store holds the commit. */
  has(runId: string, commit: string): Promise<boolean>;
  /** A stored pack's bytes. */
  read(entry: PackEntry): Promise<Buffer>;
  /** Removes every pack of a run and records why (retention); idempotent. */
  removeRun(runId: string, reason: string): Promise<void>;
  /** Why a run's files were removed, or null when they were not. */
  removal(runId: string): Promise<RemovalNote | null>;
  /** Runs whose packs should go: ended before `endedBefore` and not removed yet (at most `limit`). */
  expiredRuns(endedBefore: Date, limit: number): Promise<string[]>;
}
