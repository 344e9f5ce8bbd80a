/**
 * What `sessions.diff` needs of the session workspaces: a unified diff between two commits, each
 * in a session's workspace (the sandbox package's `WorkspaceManager` has exactly this method; the
 * server process that hosts the API builds one on the workers' LOOPLANE_WORKSPACE_ROOT). A
 * workspace that is not there (never created, or on another host) is a NOT_FOUND AppError.
 */
export interface WorkspaceDiffer {
  diff(from: { sessionId: string; commit: string }, to: { sessionId: string; commit: string }): Promise<string>;
}
