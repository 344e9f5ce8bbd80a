/**
 * A session's files cannot be had on this worker (the commit its log names is in no store, or
 * retention removed it). Working on without them would mean an agent silently working on an
 * empty tree, so the session ends failed with this reason (`SessionRun`), instead of the call
 * failing and the agent carrying on.
 */
export class WorkspaceUnavailableError extends Error {
  override readonly name = 'WorkspaceUnavailableError';
}

/**
 * A call needs an isolation level no driver of this worker can give, and its template says
 * `whenIsolationUnavailable: fail-run`: the session ends failed with the reason, and nothing of
 * the call runs (never under a weaker driver).
 */
export class IsolationUnavailableError extends Error {
  override readonly name = 'IsolationUnavailableError';
}
