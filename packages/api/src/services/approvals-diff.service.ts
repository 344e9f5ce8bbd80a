import { runSeed, type Db } from '@looplane/db';
import { heldEffectSchema, workspaceSeededSchema, type HeldEffect } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { queryableOf } from '@looplane/db';
import { ancestry, findTeamSession } from './sessions-ancestry';
import { commitAtEvent } from './sessions-commits';

/** A held result's diff larger than this is cut (with `truncated`). */
const MAX_DIFF_CHARS = 1_000_000;

interface DiffDeps {
  db: Db;
  workspaces: WorkspaceReader | null;
}

/** Where a `publish_branch` call would push: the seeded repository and the branch it names (null: not known). */
interface PushTarget {
  url: string | null;
  branch: string | null;
}

interface ApprovalDiff {
  diff: string | null;
  truncated: boolean;
  /** Why there is no diff (null when there is one). */
  reason: string | null;
  /** Kind effect: the held result. */
  held: HeldEffect | null;
  /** A `publish_branch` call: where it pushes. */
  target: PushTarget | null;
}

const NO_READER = 'session files are not readable by this server (it has no workspace store configured)';

/** A diff between two commits of a run from the store, cut at {@link MAX_DIFF_CHARS}; a store that cannot give them is a reason. */
async function storedDiff(workspaces: WorkspaceReader, runId: string, from: string | null, to: string | null, what: string) {
  try {
    const text = await workspaces.diff(runId, from, to);
    const cut = text.length > MAX_DIFF_CHARS;
    return { diff: cut ? text.slice(0, MAX_DIFF_CHARS) : text, truncated: cut, reason: null };
  } catch (error) {
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) {
      return { diff: null, truncated: false, reason: `the ${what} files are not available: ${error.message}` };
    }
    throw error;
  }
}

interface PublishRow {
  runId: string;
  sessionId: string;
  requestSeq: number;
  args: unknown;
  editedArgs: unknown;
}

/**
 * What a `publish_branch` call would push: the session's files as they were when it asked, against
 * the files the run was seeded with (the push is one commit on top of the seeded revision), and
 * where to: the seeded repository's URL and the branch the call names (the approver's edit, if any).
 */
async function publishDiff(deps: DiffDeps, teamId: string, row: PublishRow): Promise<ApprovalDiff> {
  const args = (row.editedArgs ?? row.args) as { branch?: unknown } | null;
  const branch = typeof args?.branch === 'string' ? args.branch : null;
  const seed = workspaceSeededSchema.safeParse(await runSeed(queryableOf(deps.db), row.runId));
  const target = { url: seed.success ? (seed.data.url ?? null) : null, branch };
  const none = (reason: string): ApprovalDiff => ({ diff: null, truncated: false, reason, held: null, target });
  if (!seed.success) return none('this run did not start from a repository: there is nothing to push to');
  if (seed.data.source !== 'git')
    return none(`this run started from ${seed.data.source === 'archive' ? 'an upload' : "another session's files"}, not a repository`);
  if (!deps.workspaces) return none(NO_READER);
  const session = await findTeamSession(deps.db, teamId, row.sessionId);
  const files = (await commitAtEvent(deps.db, await ancestry(deps.db, session), row.requestSeq)) ?? seed.data.commit;
  return { ...(await storedDiff(deps.workspaces, row.runId, seed.data.commit, files, 'session')), held: null, target };
}

/**
 * The diff an approver decides on, read from the workspace store, so any API server shows it
 * whichever worker ran the session. A held result (kind effect): what the call changed, from the
 * commit it started at to the commit that keeps its result. A `publish_branch` call: what it
 * would push, and where (`target`). Other calls have not run, so there is nothing to compare: the
 * answer says why.
 */
export async function approvalDiff(deps: DiffDeps, teamId: string, approvalId: string): Promise<ApprovalDiff> {
  const row = await deps.db.approval.findFirst({
    where: { id: approvalId, teamId },
    select: { kind: true, tool: true, runId: true, sessionId: true, requestSeq: true, args: true, editedArgs: true, held: true },
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such approval in this team');
  if (row.kind === 'tool' && row.tool === 'publish_branch') return publishDiff(deps, teamId, row);
  const held = heldEffectSchema.safeParse(row.held);
  if (row.kind !== 'effect' || !held.success)
    return { diff: null, truncated: false, reason: 'this approval is about a call that has not run: there is no result to compare', held: null, target: null };
  if (!deps.workspaces) return { diff: null, truncated: false, reason: NO_READER, held: held.data, target: null };
  return { ...(await storedDiff(deps.workspaces, row.runId, held.data.baseCommit, held.data.commit, 'held')), held: held.data, target: null };
}
