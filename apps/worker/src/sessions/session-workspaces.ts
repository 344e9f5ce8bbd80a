import type { Queryable } from '@looplane/db';
import type { Workspace, WorkspaceManager, WorkspaceSnapshot } from '@looplane/sandbox';
import { restoreCommit, SnapshotWriter, type WorkspaceStore } from '@looplane/workspaces';
import { WorkspaceUnavailableError } from './workspace-unavailable';

/**
 * Where a session's files stand, in one round trip: the commit of its last recorded
 * `tool.finished` (or, for a branch with no file change of its own yet, its fork point's commit),
 * its depth in the store (null: not stored), and whether retention removed the run's files.
 */
const ORIGIN_SQL = `
SELECT q."runId", q.target, p.depth AS "storedDepth", w."removedAt", w.reason AS "removedReason"
FROM (
  SELECT s."runId", COALESCE(
    (SELECT e.payload->>'commit' FROM "Event" e
     WHERE e."sessionId" = s.id AND e.type = 'tool.finished' AND e.payload ? 'commit'
     ORDER BY e.seq DESC LIMIT 1),
    s."workspaceCommit") AS target
  FROM "Session" s WHERE s.id = $1
) q
LEFT JOIN "WorkspacePack" p ON p."runId" = q."runId" AND p."commit" = q.target
LEFT JOIN "WorkspaceRemoval" w ON w."runId" = q."runId"`;

interface Origin {
  runId: string;
  target: string | null;
  /** The target's depth in the store; null when the store does not hold it. */
  storedDepth: number | null;
  removedAt: Date | null;
  removedReason: string | null;
}

/**
 * The worker's side of the workspace store. Before a session's first tool call in a job, its
 * local workspace is put at the commit its log last recorded, restored from the store when this
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

  /** The session's job ended on this worker. */
  forget(sessionId: string): void {
    this.runs.delete(sessionId);
  }

  private async origin(sessionId: string): Promise<Origin> {
    const found = await this.pool.query({ name: 'looplane_workspace_origin_v2', text: ORIGIN_SQL, values: [sessionId] });
    const row = found.rows[0] as Origin | undefined;
    if (!row) throw new WorkspaceUnavailableError(`session ${sessionId} does not exist`);
    return row;
  }
}
