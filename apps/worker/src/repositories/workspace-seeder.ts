import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventPayload, GitSource, RepositoryContext, StoredWorkspace, StoredWorkspaceOrigin } from '@looplane/engine';
import { isSourceAllowed, type PolicyDocument } from '@looplane/policy';
import { git, neutraliseAttributes, restoreCommit, type WorkspaceStore } from '@looplane/workspaces';
import { fetchRepository, SeedFailure } from './fetch-repository';
import { RemoteGit } from './remote-git';
import type { RepositorySecrets } from './repository-secrets';
import { adoptPacks } from './adopt-packs';
import { treeStats } from './tree-stats';
import { repositoryContextOf } from './repository-skills';

export interface SeedRequest {
  runId: string;
  sessionId: string;
  teamId: string;
  workspace: StoredWorkspace;
}

export interface SeedOutcome {
  payload: EventPayload<'workspace.seeded'>;
  /** The repository's AGENTS.md and skills, for `run.started`. */
  repository?: RepositoryContext;
}

export interface WorkspaceSeederDeps {
  /** Starts the session's workspace from what `fill` writes; the commit is stored before it resolves. */
  seedFiles(sessionId: string, message: string, fill: (workTree: string, gitDir: string) => Promise<void>): Promise<{ commit: string }>;
  /** The team's active policy now (its `workspace.sources`). */
  policy(teamId: string): Promise<PolicyDocument>;
  secrets: RepositorySecrets;
  /** The store of record, for another run's files. */
  store: WorkspaceStore | null;
  /** An upload's bytes, unpacked into a directory (checked again as they are written). */
  unpackUpload(teamId: string, uploadId: string, workTree: string): Promise<{ filename: string }>;
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Gives a new session the files its run named, before its first model call: a repository the
 * worker fetches itself (the credential from a team secret, never in the sandbox), an upload, or
 * another session's files. Anything that keeps the files from being had throws {@link SeedFailure}
 * with the cause, and the run fails with it before a model is called.
 */
export class WorkspaceSeeder {
  constructor(private readonly deps: WorkspaceSeederDeps) {}

  async seed(request: SeedRequest): Promise<SeedOutcome> {
    const source = request.workspace;
    if ('git' in source) return this.fromRepository(request, source.git);
    if ('archive' in source) return this.fromUpload(request, source.archive.uploadId);
    if (!source.from) throw new SeedFailure('the run names another session’s files but not where they were when it was created');
    return this.fromSession(request, source.session.sessionId, source.from);
  }

  private async fromRepository(request: SeedRequest, source: GitSource): Promise<SeedOutcome> {
    const decision = isSourceAllowed((await this.deps.policy(request.teamId)).workspace.sources, source.url);
    if (!decision.allowed) throw new SeedFailure(`the team policy refuses this repository: ${decision.reason}`);
    const credential = source.secretRef ? await this.deps.secrets.credential(request.teamId, source.secretRef, source.url) : null;
    const remote = await RemoteGit.open(credential);
    try {
      let fetched: Awaited<ReturnType<typeof fetchRepository>> | null = null;
      let stats = { files: 0, bytes: 0 };
      let repository: RepositoryContext | undefined;
      const { commit } = await this.deps.seedFiles(request.sessionId, `seeded from ${source.url}`, async (workTree, gitDir) => {
        fetched = await fetchRepository(remote, source, workTree, this.deps.timeoutMs);
        await adoptPacks(join(workTree, '.git'), gitDir);
        stats = await treeStats(workTree, this.deps.maxBytes);
        repository = await repositoryContextOf(workTree);
      });
      const got = fetched as Awaited<ReturnType<typeof fetchRepository>> | null;
      if (!got) throw new SeedFailure('the repository was not fetched');
      return {
        payload: {
          source: 'git',
          commit,
          ...stats,
          url: source.url,
          ...(source.ref ? { ref: source.ref } : {}),
          ...(got.branch ? { branch: got.branch } : {}),
          revision: got.revision,
          ...(source.secretRef ? { secretRef: source.secretRef } : {}),
        },
        ...(repository ? { repository } : {}),
      };
    } finally {
      await remote.close();
    }
  }

  private async fromUpload(request: SeedRequest, uploadId: string): Promise<SeedOutcome> {
    let stats = { files: 0, bytes: 0 };
    let repository: RepositoryContext | undefined;
    let filename = '';
    const { commit } = await this.deps.seedFiles(request.sessionId, `seeded from upload ${uploadId}`, async (workTree) => {
      filename = (await this.deps.unpackUpload(request.teamId, uploadId, workTree)).filename;
      stats = await treeStats(workTree, this.deps.maxBytes);
      repository = await repositoryContextOf(workTree);
    });
    return { payload: { source: 'archive', commit, ...stats, uploadId, filename }, ...(repository ? { repository } : {}) };
  }

  private async fromSession(request: SeedRequest, sessionId: string, from: StoredWorkspaceOrigin): Promise<SeedOutcome> {
    let stats = { files: 0, bytes: 0 };
    let repository: RepositoryContext | undefined;
    const { commit } = await this.deps.seedFiles(request.sessionId, `seeded from session ${sessionId} at #${from.atEvent}`, async (workTree) => {
      if (from.commit) await this.checkoutStored(from.runId, from.commit, workTree);
      stats = await treeStats(workTree, this.deps.maxBytes);
      repository = await repositoryContextOf(workTree);
    });
    return {
      payload: { source: 'session', commit, ...stats, fromSession: { sessionId, atEvent: from.atEvent } },
      ...(repository ? { repository } : {}),
    };
  }

  /** Writes a stored commit of another run into a work tree, through a scratch repository of the worker's. */
  private async checkoutStored(runId: string, commit: string, workTree: string): Promise<void> {
    if (!this.deps.store) throw new SeedFailure('this worker has no workspace store to read another session’s files from');
    const scratch = await mkdtemp(join(tmpdir(), 'looplane-seed-'));
    try {
      const options = { gitDir: join(scratch, 'git'), workTree, indexFile: join(scratch, 'index') };
      await git(['init', '-q', '--bare', options.gitDir], { gitDir: options.gitDir });
      await neutraliseAttributes(options);
      if (!(await restoreCommit(this.deps.store, options.gitDir, runId, commit))) {
        throw new SeedFailure(`the session's files at commit ${commit} are in no workspace store (retention may have removed them)`);
      }
      await git(['read-tree', commit], options);
      await git(['checkout-index', '-a', '-f'], options);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}
