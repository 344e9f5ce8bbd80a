import type { Db } from '@looplane/db';
import { heldEffectSchema } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';

/** A held result's diff larger than this is cut (with `truncated`). */
const MAX_DIFF_CHARS = 1_000_000;

/**
 * The diff of a held result (an approval of kind effect): what the call changed, from the commit
 * it started at to the commit that keeps its result, read from the workspace store, so any API
 * server shows it whichever worker ran the call. Other approvals have no diff (their call has not
 * run); the answer then says why.
 */
export async function approvalDiff(deps: { db: Db; workspaces: WorkspaceReader | null }, teamId: string, approvalId: string) {
  const row = await deps.db.approval.findFirst({ where: { id: approvalId, teamId }, select: { kind: true, runId: true, held: true } });
  if (!row) throw new AppError('NOT_FOUND', 'No such approval in this team');
  const held = heldEffectSchema.safeParse(row.held);
  if (row.kind !== 'effect' || !held.success)
    return { diff: null, truncated: false, reason: 'this approval is about a call that has not run: there is no result to compare', held: null };
  if (!deps.workspaces)
    return { diff: null, truncated: false, reason: 'session files are not readable by this server (it has no workspace store configured)', held: held.data };
  try {
    const text = await deps.workspaces.diff(row.runId, held.data.baseCommit, held.data.commit);
    const cut = text.length > MAX_DIFF_CHARS;
    return { diff: cut ? text.slice(0, MAX_DIFF_CHARS) : text, truncated: cut, reason: null, held: held.data };
  } catch (error) {
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) {
      return { diff: null, truncated: false, reason: `the held files are not available: ${error.message}`, held: held.data };
    }
    throw error;
  }
}
