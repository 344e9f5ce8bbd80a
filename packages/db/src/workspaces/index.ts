// Session files as the log records them: the events that move them (calls, restores), where a
// session's files stand, and restore requests (`sessions.restore`) from the API to the worker.
export {
  lastCommitIn,
  commitEventCount,
  commitEvents,
  workspaceOrigin,
  type CommitLink,
  type CommitEventRow,
  type WorkspaceOrigin,
} from './commit-events.repository';
export { pendingRestores, settleRestoresStatement, reopenForRestores, type PendingRestore, type SettledRestore } from './restore.repository';
export { runSeed } from './run-seed.repository';
// The store of record's index of packs, the postgres driver's chunks, and retention.
export { insertWorkspacePack, workspacePackChain, hasWorkspacePack, type WorkspacePackRow } from './pack-index.repository';
export { storeChunkedPack, readChunkedPack } from './pack-chunks.repository';
export {
  removeRunWorkspace,
  workspaceRemoval,
  runsWithExpiredWorkspaces,
  sessionsPastRetention,
  type WorkspaceRemovalRow,
} from './workspace-retention.repository';
