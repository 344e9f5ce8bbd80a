// @looplane/workspaces: the store of record for session files (git packs in Postgres or S3), the
// snapshots the worker writes, and the reader the API serves files, diffs and downloads from.

export type { WorkspaceStore, PackEntry, RemovalNote, StoreDriverName } from './workspace-store';
export { PostgresWorkspaceStore } from './postgres.store';
export { S3WorkspaceStore, type S3StoreOptions } from './s3.store';
export { workspaceStoreEnv, workspaceStoreProblem, createWorkspaceStore, type WorkspaceStoreEnv } from './store-config';
export { SnapshotWriter, restoreCommit, packCommit, applyPack, hasCommit, MAX_DEPTH, type SaveRequest } from './snapshots';
export { WorkspaceReader, EMPTY_TREE, type WorkspaceEntry, type WorkspaceFile, type WorkspaceNode, type WorkspaceReaderOptions } from './workspace-reader';
export { workspacePathSchema, MAX_PATH_CHARS } from './workspace-path';
export { commitWorkTree, neutraliseAttributes, type CommitResult, type RefusedPath } from './commit-work-tree';
export { restoredCommit, type RestoreTreeInput } from './restore-tree';
export { git, gitBytes, gitScript, gitStream, checkCommitId, type GitOptions, type GitResult, type GitBytesOptions } from './git';
export {
  inspectArchive,
  extractArchive,
  type ArchiveFormat,
  type ArchiveLimits,
  type ArchiveOptions,
  type ArchiveSummary,
  type ExtractResult,
} from './archive/index';
export { formatPatch } from './format-patch';
