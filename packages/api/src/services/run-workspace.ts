import type { Db } from '@looplane/db';
import { parseRepositoryUrl, workspaceSourceSchema, type StoredWorkspace, type StoredWorkspaceOrigin, type WorkspaceSource } from '@looplane/engine';
import { isSourceAllowed } from '@looplane/policy';
import { AppError } from '@looplane/shared';
import { activePolicyVersion } from './policy-gates';
import { findTeamSession } from './sessions-ancestry';
import { workspacePoint } from './sessions-commits';

/** A stored default (`AgentTemplate.workspace`, `GraphNode.workspace`), or null when it has none or no longer parses. */
export function storedWorkspace(value: unknown): WorkspaceSource | null {
  if (value === null || value === undefined) return null;
  const parsed = workspaceSourceSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Checks where a run's files would come from, before anything is written, and returns what
 * `Run.workspace` stores: a repository the team's policy allows (`workspace.sources`) with a
 * credential of the right kind, an upload of the team that has not expired, or a session of the
 * team (at an event its log has; the commit of its files there is resolved now, so the new run
 * starts from exactly what the caller saw). The worker checks a repository against the policy again
 * when it clones, since the policy may change meanwhile.
 */
export async function resolveWorkspaceSource(db: Db, teamId: string, source: WorkspaceSource): Promise<StoredWorkspace> {
  if ('git' in source) await checkRepository(db, teamId, source.git);
  else if ('archive' in source) await checkUpload(db, teamId, source.archive.uploadId, { claim: true });
  else return { ...source, from: await sessionPoint(db, teamId, source.session) };
  return source;
}

/**
 * Checks a default saved on an agent template or a graph node with the same rules as a run's
 * source, without using anything up: an upload is not claimed (each run that uses the default
 * claims it then), and another session's point is resolved again by every run.
 */
export async function checkWorkspaceDefault(db: Db, teamId: string, source: WorkspaceSource): Promise<void> {
  if ('git' in source) await checkRepository(db, teamId, source.git);
  else if ('archive' in source) await checkUpload(db, teamId, source.archive.uploadId, { claim: false });
  else await sessionPoint(db, teamId, source.session);
}

async function checkRepository(db: Db, teamId: string, git: Extract<WorkspaceSource, { git: unknown }>['git']): Promise<void> {
  const url = parseRepositoryUrl(git.url);
  if (!url.ok) throw new AppError('BAD_REQUEST', `workspace.git.url ${url.reason}`);
  const { document } = await activePolicyVersion(db, teamId);
  if (!document) throw new AppError('PRECONDITION_FAILED', "The team's active policy does not validate, so nothing may run; fix it on the Policies page");
  const decision = isSourceAllowed(document.workspace.sources, git.url);
  if (!decision.allowed) throw new AppError('FORBIDDEN', `The team policy refuses this repository: ${decision.reason}`);
  if (!git.secretRef) return;
  const secret = await db.teamSecret.findUnique({ where: { teamId_name: { teamId, name: git.secretRef } }, select: { kind: true } });
  if (!secret) throw new AppError('PRECONDITION_FAILED', `workspace.git.secretRef names no team secret ${git.secretRef} (Settings → Secrets)`);
  if (url.scheme === 'ssh' && secret.kind !== 'ssh_key') {
    throw new AppError('BAD_REQUEST', `an ssh repository needs an ssh_key secret; ${git.secretRef} is a ${secret.kind} secret`);
  }
  if ((url.scheme === 'https' || url.scheme === 'http') && secret.kind !== 'token') {
    throw new AppError('BAD_REQUEST', `an ${url.scheme} repository needs a token secret; ${git.secretRef} is a ${secret.kind} secret`);
  }
  if (url.scheme === 'file') throw new AppError('BAD_REQUEST', 'a file:// repository takes no secretRef');
}

async function checkUpload(db: Db, teamId: string, uploadId: string, options: { claim: boolean }): Promise<void> {
  const upload = await db.upload.findFirst({ where: { id: uploadId, teamId }, select: { expiresAt: true, usedAt: true } });
  if (!upload) throw new AppError('NOT_FOUND', `No upload ${uploadId} in this team (POST /api/v1/uploads first)`);
  if (upload.usedAt === null && upload.expiresAt.getTime() <= Date.now()) {
    throw new AppError('NOT_FOUND', `Upload ${uploadId} expired unused at ${upload.expiresAt.toISOString()}; upload the archive again`);
  }
  // A run names it: it no longer expires (retention of the run's files governs it from here).
  if (options.claim && upload.usedAt === null) await db.upload.updateMany({ where: { id: uploadId, teamId, usedAt: null }, data: { usedAt: new Date() } });
}

async function sessionPoint(db: Db, teamId: string, ref: { sessionId: string; atEvent?: number | undefined }): Promise<StoredWorkspaceOrigin> {
  const session = await findTeamSession(db, teamId, ref.sessionId);
  const point = await workspacePoint(db, session, ref.atEvent);
  return { runId: session.runId, commit: point.commit, atEvent: point.atEvent };
}
