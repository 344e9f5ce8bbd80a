/**
 * A session's files cannot be had on this worker (the commit its log names is in no store, or
 * retention removed it). Working on without them would mean an agent silently working on an
 * empty tree, so the session ends failed with this reason (`SessionRun`), instead of the call
 * failing and the agent carrying on.
 */
export class WorkspaceUnavailableError extends Error {
  override readonly name = 'WorkspaceUnavailableError';
}
