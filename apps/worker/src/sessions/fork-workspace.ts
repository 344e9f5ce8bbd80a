import type { Queryable } from '@looplane/db';
import type { Workspace, WorkspaceManager } from '@looplane/sandbox';
import { AppError } from '@looplane/shared';

const SESSION_SQL = `SELECT "parentId", "workspaceCommit" FROM "Session" WHERE id = $1`;
const PARENT_SQL = `SELECT "parentId" FROM "Session" WHERE id = $1`;

/**
 * Creates a session's workspace the first time a tool needs it (idempotent, like
 * `WorkspaceManager.create`). A branch made by `sessions.fork` starts from the files its fork point
 * had: `Session.workspaceCommit` (the last commit recorded at or before the fork point, set by the
 * API) is forked from the nearest ancestor whose workspace holds it. The commit was made in
 * the workspace of the session that ran the tool, and every fork of that workspace copies its
 * history, so walking up the ancestry finds it. A root session, or a branch forked before any file
 * changed, starts empty as its root did.
 *
 * A fork whose commit no ancestor workspace on this host holds fails loudly (workspaces are local
 * to a worker host): starting it empty would silently drop the files the branch inherited.
 */
export async function createSessionWorkspace(workspaces: WorkspaceManager, db: Queryable, sessionId: string): Promise<Workspace> {
  const existing = await workspaces.get(sessionId).catch(() => null);
  if (existing) return existing;
  const found = await db.query({ name: 'looplane_workspace_origin_v1', text: SESSION_SQL, values: [sessionId] });
  const row = found.rows[0] as { parentId: string | null; workspaceCommit: string | null } | undefined;
  if (!row?.parentId || !row.workspaceCommit) return workspaces.create(sessionId);
  for (let ancestor: string | null = row.parentId; ancestor; ancestor = await parentOf(db, ancestor)) {
    try {
      return await workspaces.fork(ancestor, row.workspaceCommit, sessionId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Another call of the same session forked it first.
      if (error.code === 'CONFLICT') return workspaces.get(sessionId);
      // This ancestor has no workspace here, or not that commit: try the next one up.
      if (error.code !== 'NOT_FOUND') throw error;
    }
  }
  throw new AppError('NOT_FOUND', `no workspace on this host holds commit ${row.workspaceCommit}, where session ${sessionId} was forked`);
}

async function parentOf(db: Queryable, sessionId: string): Promise<string | null> {
  const found = await db.query({ name: 'looplane_workspace_parent_v1', text: PARENT_SQL, values: [sessionId] });
  return (found.rows[0] as { parentId: string | null } | undefined)?.parentId ?? null;
}
