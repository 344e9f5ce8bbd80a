import type { Db } from '@looplane/db';
import type { WorkspaceNode, WorkspaceReader } from '@looplane/workspaces';
import type { SessionFilesInput } from '../routers/sessions.schema';
import { findTeamSession } from './sessions-ancestry';
import { requireReader, workspacePoint } from './sessions-commits';

/** A file larger than this comes back cut to its first this-many bytes (`truncated: true`). */
export const MAX_FILE_BYTES = 1024 * 1024;

interface FilesDeps {
  db: Db;
  workspaces: WorkspaceReader | null;
}

export interface SessionFiles {
  runId: string;
  sessionId: string;
  atEvent: number;
  /** The commit the files are read at; null: no call had changed a file by then (empty workspace). */
  commit: string | null;
  node: WorkspaceNode;
}

/**
 * A directory listing or one file of a session's workspace as it was at event `atEvent` of its
 * log (default: its latest committed event), read from the workspace store. A fork reads its
 * parent's files up to its fork point, as its log does. A path that does not exist at that point,
 * or files removed by retention, are NOT_FOUND with the reason.
 */
export async function sessionFiles(deps: FilesDeps, teamId: string, input: SessionFilesInput): Promise<SessionFiles> {
  const session = await findTeamSession(deps.db, teamId, input.sessionId);
  const point = await workspacePoint(deps.db, session, input.atEvent);
  const reader = requireReader(deps.workspaces);
  const node = await reader.node(session.runId, point.commit, input.path ?? '', MAX_FILE_BYTES);
  return { runId: session.runId, sessionId: session.id, atEvent: point.atEvent, commit: point.commit, node };
}
