import { workspaceOrigin, type Queryable, type WorkspaceOrigin } from '@looplane/db';
import type { KeptCommit, Workspace, WorkspaceManager, WorkspaceSnapshot } from '@looplane/sandbox';
import { restoreCommit, SnapshotWriter, type WorkspaceStore } from '@looplane/workspaces';
import { WorkspaceUnavailableError } from './workspace-unavailable';

/**
 * The worker's side of the workspace store. Before a session's first tool call in a job, its
 * local workspace is put at the commit its log last recorded (a mutating call's, or a restore's),
 * restored from the store when this
 * host's copy is missing or behind (any worker resumes any session; forks start at their fork
 * point's files). After each mutating call the new commit is stored before the call returns, so
 * its `tool.finished` event only ever names a commit the store holds.
 */
export class SessionWorkspaces {
  /** Session → run, for the sessions this worker prepared (the persist hook knows only the session). */
  private readonly runs = new Map<string, string>();
  private readonly writer: SnapshotWriter;

  constructor(
    private readonly pool: Queryable,
    readonly store: WorkspaceStore,
  ) {
    this.writer = new SnapshotWriter(store);
  }

  /** `WorkspaceManager`'s persist hook: the commit is durable in the store when this resolves. */
  readonly persist = async (snapshot: WorkspaceSnapshot): Promise<void> => {
    const runId = this.runs.get(snapshot.sessionId) ?? (await this.origin(snapshot.sessionId)).runId;
    const request = { gitDir: snapshot.gitDir, runId, sessionId: snapshot.sessionId, commit: snapshot.commit };
    // No base: an unchanged workspace's commit, usually known to be stored already (no round trip then).
    await (snapshot.base === null ? this.writer.ensure(request) : this.writer.save({ ...request, base: snapshot.base }));
  };

  /** Puts the session's workspace on this host at its recorded commit; WorkspaceUnavailableError when that cannot be. */
  async prepare(workspaces: WorkspaceManager, sessionId: string): Promise<Workspace> {
    const origin = await this.origin(sessionId);
    if (origin.removedAt) {
      throw new WorkspaceUnavailableError(
        `the files of this run were removed on ${origin.removedAt.toISOString()}: ${origin.removedReason ?? 'retention'}; start a new run instead`,
      );
    }
    this.runs.set(sessionId, origin.runId);
    const { target } = origin;
    const workspace = await workspaces.materialise(sessionId, target, async (gitDir) => {
      if (!target || !(await restoreCommit(this.store, gitDir, origin.runId, target))) {
        throw new WorkspaceUnavailableError(`the session's files at commit ${target} are in no workspace store (${this.store.driver}) and not on this host`);
      }
    });
    // A workspace made here before the store existed: its commit goes to the store now, so other hosts can have it.
    if (target && origin.storedDepth === null)
      await this.writer.ensure({ gitDir: workspaces.gitDirOf(sessionId), runId: origin.runId, sessionId, commit: target });
    // The next commit is stored relative to this one without asking the store for its depth.
    else if (target) this.writer.stored(origin.runId, target, origin.storedDepth!);
    return workspace;
  }

  /**
   * Puts the session's workspace at a stored commit of its run (a held result an approver kept),
   * restoring it from the store when this host lacks it.
   */
  async applyCommit(workspaces: WorkspaceManager, sessionId: string, commit: string): Promise<void> {
    const runId = this.runs.get(sessionId) ?? (await this.origin(sessionId)).runId;
    await workspaces.materialise(sessionId, commit, async (gitDir) => {
      if (!(await restoreCommit(this.store, gitDir, runId, commit))) {
        throw new WorkspaceUnavailableError(`the held result at commit ${commit} is in no workspace store (${this.store.driver}) and not on this host`);
      }
    });
  }

  /**
   * Puts the session's files (all, or `paths`) back as they were at a stored commit of its run
   * (`sessions.restore`; a fork's ancestor's commit too), restoring that commit from the store when
   * this host lacks it. The new commit is stored before it is returned.
   */
  async restore(
    workspaces: WorkspaceManager,
    sessionId: string,
    input: { source: string | null; paths: readonly string[] | null; message: string },
  ): Promise<KeptCommit> {
    const runId = this.runs.get(sessionId) ?? (await this.origin(sessionId)).runId;
    return workspaces.restoreFrom(sessionId, input, async (gitDir) => {
      if (!input.source || !(await restoreCommit(this.store, gitDir, runId, input.source))) {
        throw new WorkspaceUnavailableError(
          `the session's files at commit ${input.source} are in no workspace store (${this.store.driver}) and not on this host`,
        );
      }
    });
  }

  /** The session's job ended on this worker. */
  forget(sessionId: string): void {
    this.runs.delete(sessionId);
  }

  /** Where the session's files stand: the commit its log last recorded (a call's or a restore's), stored or not, removed or not. */
  private async origin(sessionId: string): Promise<WorkspaceOrigin> {
    const row = await workspaceOrigin(this.pool, sessionId);
    if (!row) throw new WorkspaceUnavailableError(`session ${sessionId} does not exist`);
    return row;
  }
}
