import { isTerminalRunStatus, pendingRestores, settleRestoresStatement, type PgEventStore, type SettledRestore, type WriteUnit } from '@looplane/db';
import { apply, createEvent, type Clock, type NewEvent, type RunState } from '@looplane/engine';
import type { Logger } from 'pino';
import { WorkspaceUnavailableError } from '../sessions/workspace-unavailable';
import type { FilesRestorer } from '../tools/tool-registry';

export interface WorkspaceRestoresDeps {
  unit: WriteUnit;
  store: PgEventStore;
  clock: Clock;
  sessionId: string;
  /** The worker's workspaces (null: none here, and every request is refused with that reason). */
  restorer: FilesRestorer | null;
  log: () => Logger;
}

/**
 * Restore requests (`sessions.restore`), applied by the worker that holds the session, at a step
 * boundary: the API only records them and wakes the session, as it does for a message.
 *
 * Each request becomes a commit of the files as they were at its event (stored before any event
 * names it) and a `workspace.restored` event naming it, so forks, other hosts and the Files tab
 * read the restored files from the log like a call's. The requests are settled in the same commit
 * as their events (`WriteUnit.checked`, then the flush), so a request is settled exactly when its
 * event is durable, and a job that dies before that leaves it pending for the next one (the
 * restore is made again; its first commit, never named, is harmless).
 *
 * A finished branch is reopened for a restore (the API's compare-and-set to `idle`, as a resume
 * does). Its log then gets the restore and, in the same commit, its `run.finished` again with the
 * outcome it had: no `run.resumed`, so the state never leaves its terminal status, no model is
 * called and nothing is charged, and the flush that writes the finish closes the row again. The
 * engine needs nothing new for that: `workspace.restored` changes no status, and a repeated
 * `run.finished` sets the status it already had.
 */
export class WorkspaceRestores {
  constructor(private readonly deps: WorkspaceRestoresDeps) {}

  /**
   * Applies the session's pending requests, oldest first; `refinish` (a finished branch reopened
   * for them) finishes it again after them with its outcome. Returns how many were settled.
   */
  async apply(state: RunState, options: { refinish?: boolean } = {}): Promise<number> {
    const { deps } = this;
    const requests = await pendingRestores(deps.unit.reader, deps.sessionId);
    const outcome = options.refinish && isTerminalRunStatus(state.status) ? finishedAgain(state, deps.clock) : null;
    const settled: SettledRestore[] = [];
    for (const request of requests) {
      const paths = request.paths.length > 0 ? request.paths : null;
      try {
        if (!deps.restorer) throw new WorkspaceUnavailableError('this worker has no workspaces to restore files in');
        const message = `restore ${paths ? `${paths.length} path(s)` : 'the workspace'} to event #${request.atEvent}`;
        const { commit } = await deps.restorer({ sessionId: deps.sessionId, source: request.sourceCommit, paths, message });
        const event = createEvent(
          'workspace.restored',
          { requestId: request.id, atEvent: request.atEvent, commit, ...(paths ? { paths } : {}), requestedBy: request.requestedById },
          deps.clock,
        );
        const [stored] = await this.append(state, [event]);
        settled.push({ id: request.id, seq: stored!.seq, commit, error: null });
        deps.log().info({ requestId: request.id, atEvent: request.atEvent, paths: paths?.length ?? null, commit }, 'workspace restored');
      } catch (error) {
        // Files that cannot be had (removed by retention, in no store) refuse this request, with the reason on its row; anything else fails the job, which is retried.
        if (!(error instanceof WorkspaceUnavailableError)) throw error;
        settled.push({ id: request.id, seq: null, commit: null, error: error.message });
        deps.log().warn({ requestId: request.id, reason: error.message }, 'workspace restore refused');
      }
    }
    if (outcome) await this.append(state, [outcome]);
    if (settled.length === 0 && !outcome) return 0;
    if (settled.length > 0) await deps.unit.checked(settleRestoresStatement(settled));
    await deps.unit.flush();
    return settled.length;
  }

  private async append(state: RunState, events: NewEvent[]) {
    const stored = await this.deps.store.append(events, state.lastSeq);
    for (const event of stored) apply(state, event);
    return stored;
  }
}

/**
 * The `run.finished` a finished branch had, written again after its restores. A result that is
 * the final answer names that answer again (`resultSeq`), so the log still holds its text once.
 */
function finishedAgain(state: RunState, clock: Clock): NewEvent {
  const status = state.status as 'succeeded' | 'failed' | 'cancelled';
  const answer = state.result !== null && state.finalTextSeq !== null && state.result === state.finalText ? { resultSeq: state.finalTextSeq } : {};
  return createEvent(
    'run.finished',
    { status, ...(state.result !== null ? { result: state.result } : {}), ...answer, ...(state.error !== null ? { error: state.error } : {}) },
    clock,
  );
}
