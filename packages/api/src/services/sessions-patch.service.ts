import { runSeed, type Db } from '@looplane/db';
import { workspaceSeededSchema } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { queryableOf } from '@looplane/db';
import { ancestry, findTeamSession, type ChainLink } from './sessions-ancestry';
import { commitAtEvent, headCommit, requireReader } from './sessions-commits';

/** What `sessions.patch` sends at most of a series (the REST download sends it whole). */
export const MAX_PATCH_CHARS = 5 * 1024 * 1024;

interface PatchDeps {
  db: Db;
  workspaces: WorkspaceReader | null;
}

export interface SessionPatchRequest {
  sessionId: string;
  /** An event of the session whose files are the base (default: the seeded files). */
  base?: number | undefined;
  /** Send the whole series however long (the download); otherwise cut at {@link MAX_PATCH_CHARS}. */
  whole?: boolean | undefined;
}

export interface SessionPatch {
  runId: string;
  sessionId: string;
  /** The commit the series starts from: the seeded files', or the files' at `baseEvent`. */
  base: string;
  /** The event whose files are the base; null: the seeded files. */
  baseEvent: number | null;
  /** The session's latest files. */
  head: string;
  /** The mbox text of `git format-patch` (empty: nothing changed). */
  patch: string;
  /** How many messages (commits) the series holds. */
  messages: number;
  /** The series was cut at {@link MAX_PATCH_CHARS} (never for `whole`). */
  truncated: boolean;
}

/**
 * The commit of the files a session was seeded with: its own or an ancestor's `workspace.seeded`
 * within the part of their logs it inherits, else the run's (a delegated child shares the run's
 * workspace but not its parent's log). Null when the run started empty.
 */
async function seededCommit(db: Db, runId: string, chain: readonly ChainLink[]): Promise<string | null> {
  const seeds = await db.event.findMany({ where: { runId, type: 'workspace.seeded' }, select: { sessionId: true, seq: true, payload: true } });
  const inherited = seeds.find((seed) => chain.some((link) => link.sessionId === seed.sessionId && seed.seq > link.from && seed.seq <= link.upTo));
  const payload = inherited ? inherited.payload : await runSeed(queryableOf(db), runId);
  const parsed = workspaceSeededSchema.safeParse(payload);
  return parsed.success ? parsed.data.commit : null;
}

/** The messages of a `git format-patch` series: each begins with a `From <sha> ` line. */
function countMessages(patch: string): number {
  return patch.match(/^From [0-9a-f]{40,64} /gm)?.length ?? 0;
}

/**
 * What a session changed as a `git format-patch` series (binary-safe, one message per call that
 * changed files), from the files it was seeded with, or from its files at event `base`, to its
 * latest files, read from the workspace store: `git am` on the repository the run started from
 * reproduces the session's files. A run that started empty has no seed: then a base must be
 * given (PRECONDITION_FAILED otherwise), and it must be an event by which files existed.
 */
export async function sessionPatch(deps: PatchDeps, teamId: string, request: SessionPatchRequest): Promise<SessionPatch> {
  const session = await findTeamSession(deps.db, teamId, request.sessionId);
  const chain = await ancestry(deps.db, session);
  let base: string | null;
  if (request.base === undefined) {
    base = await seededCommit(deps.db, session.runId, chain);
    if (!base) {
      throw new AppError(
        'PRECONDITION_FAILED',
        'This run did not start from files (a repository, an upload or a session), so there is nothing to diff from: give base, an event whose files are the base',
      );
    }
  } else {
    if (request.base < 1 || request.base > session.lastSeq) {
      throw new AppError('BAD_REQUEST', `base must be an event of session ${session.id}: between 1 and ${session.lastSeq}`);
    }
    base = await commitAtEvent(deps.db, chain, request.base);
    if (!base) throw new AppError('PRECONDITION_FAILED', `The session had no files at event ${request.base}: give a later base`);
  }
  const head = (await headCommit(deps.db, chain)) ?? base;
  // Nothing changed: no need for the store (or a reader) to say so.
  const patch = head === base ? '' : await requireReader(deps.workspaces).patch(session.runId, base, head);
  const truncated = !request.whole && patch.length > MAX_PATCH_CHARS;
  return {
    runId: session.runId,
    sessionId: session.id,
    base,
    baseEvent: request.base ?? null,
    head,
    patch: truncated ? patch.slice(0, MAX_PATCH_CHARS) : patch,
    messages: countMessages(patch),
    truncated,
  };
}
