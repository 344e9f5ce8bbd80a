import type { Readable } from 'node:stream';
import type { Db } from '@looplane/db';
import { AppError, roleAtLeast } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { resolveTeamRole, type Principal } from '../auth/principal';
import { archiveAtEventParam } from '../routers/sessions.schema';
import { idSchema } from '../schemas';
import { findTeamSession } from './sessions-ancestry';
import { requireReader, workspacePoint } from './sessions-commits';

interface ArchiveDeps {
  db: Db;
  workspaces?: WorkspaceReader | null;
}

export interface SessionArchive {
  runId: string;
  sessionId: string;
  atEvent: number;
  commit: string | null;
  /** `<sessionId>-<atEvent>.tar.gz`, for Content-Disposition. */
  filename: string;
  /** The gzipped tarball, streamed from the reader. */
  stream: Readable;
}

/**
 * A session's workspace at event `atEvent` (the raw query value; null: its latest committed
 * event) as a tar.gz stream, for the download route. The URL names no team, so the session's own
 * team decides: the caller needs at least viewer there, and a session of a team they are not in
 * is NOT_FOUND, exactly like a session that does not exist (ids of other teams do not leak). The
 * event is checked only after that, so a bad `atEvent` tells nothing about other teams' sessions.
 */
export async function sessionArchive(deps: ArchiveDeps, principal: Principal, sessionId: string, atEvent: string | null): Promise<SessionArchive> {
  const owner = idSchema.safeParse(sessionId).success
    ? await deps.db.session.findUnique({ where: { id: sessionId }, select: { run: { select: { teamId: true } } } })
    : null;
  const role = owner ? await resolveTeamRole(deps.db, principal, owner.run.teamId) : null;
  if (!owner || !role || !roleAtLeast(role, 'viewer')) throw new AppError('NOT_FOUND', 'No such session');
  const session = await findTeamSession(deps.db, owner.run.teamId, sessionId);
  const parsed = archiveAtEventParam.safeParse(atEvent ?? undefined);
  if (!parsed.success) throw new AppError('BAD_REQUEST', `atEvent ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  const point = await workspacePoint(deps.db, session, parsed.data);
  const reader = requireReader(deps.workspaces);
  const stream = await reader.archive(session.runId, point.commit);
  return { runId: session.runId, sessionId: session.id, ...point, filename: `${session.id}-${point.atEvent}.tar.gz`, stream };
}
