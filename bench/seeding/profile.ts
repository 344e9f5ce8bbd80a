// Where a seed's time goes: the worker's own seeding steps (apps/worker/src/repositories and
// WorkspaceManager.seed in packages/sandbox) replayed one by one on the same repository, server and
// store, each timed. Not the measured run: a breakdown of what it does, in the same repetition.
import { lchown, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import { commitWorkTree, git, neutraliseAttributes, SnapshotWriter } from '@looplane/workspaces';
import { fetchRepository } from '../../apps/worker/src/repositories/fetch-repository';
import { RemoteGit } from '../../apps/worker/src/repositories/remote-git';
import { agentsMdOf, treeStats } from '../../apps/worker/src/repositories/tree-stats';
import { TOKEN_USER, type SeedingStack } from './stack';

export interface SeedProfile {
  /** RemoteGit + fetchRepository: init, ls-remote for the default branch, fetch --depth 1, checkout, upstream. */
  fetchMs: number;
  /** treeStats + agentsMdOf: walking the tree for `workspace.seeded`'s counts and the AGENTS.md. */
  statsMs: number;
  /** The workspace's own repository: init, attributes, the empty first commit. */
  initMs: number;
  /** commitWorkTree: every file hashed into the workspace's repository and committed. */
  commitMs: number;
  /** chown of the work tree to the sandbox's uid (WorkspaceManager's chownTree). */
  chownMs: number;
  /** SnapshotWriter.save of the seed commit: git pack-objects, then the store's transaction. */
  saveMs: number;
  /** Of `saveMs`, the store's `put` (Postgres: the pack's chunk rows in one transaction, committed with fsync). */
  putMs: number;
  packBytes: number;
}

/** lchown of every entry, as WorkspaceManager's chownTree does (walk, one call per entry). */
async function chownAll(dir: string, uid: number): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    await lchown(path, uid, uid);
    if (entry.isDirectory()) await chownAll(path, uid);
  }
}

/** Replays the seed of `stack.repository` step by step in `dir` (removed afterwards). */
export async function profileSeed(stack: SeedingStack, dir: string): Promise<SeedProfile> {
  const workTree = join(dir, 'work');
  const gitDir = join(dir, 'git');
  await mkdir(workTree, { recursive: true });
  await mkdir(gitDir, { recursive: true });
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const value = await fn();
    return [value, performance.now() - started];
  };
  try {
    const [, fetchMs] = await timed(async () => {
      const remote = await RemoteGit.open({ kind: 'token', username: TOKEN_USER, token: stack.token });
      try {
        await fetchRepository(remote, { url: stack.repository.url }, workTree, 600_000);
      } finally {
        await remote.close();
      }
    });
    const [, statsMs] = await timed(async () => {
      await treeStats(workTree, 2048 * 1024 * 1024);
      await agentsMdOf(workTree);
    });
    const options = { gitDir, workTree };
    const [, initMs] = await timed(async () => {
      await git(['init', '-q', '-b', 'main'], options);
      await neutraliseAttributes(options);
      await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'workspace created'], options);
    });
    const [made, commitMs] = await timed(() => commitWorkTree(options, `seeded from ${stack.repository.url}`));
    if (!made.commit) throw new Error('the profile’s commit changed nothing');
    const [, chownMs] = await timed(() => chownAll(workTree, 65_534));
    const agent = await createTestAgent(stack.database.db, stack.fx.teamId);
    const { runId, sessionId } = await createTestRun(stack.database.db, agent);
    const puts = stack.store.puts.length;
    const [, saveMs] = await timed(() => new SnapshotWriter(stack.store).save({ gitDir, runId, sessionId, commit: made.commit!, base: null }));
    const put = stack.store.puts[puts];
    if (!put) throw new Error('the profile’s save stored nothing');
    return { fetchMs, statsMs, initMs, commitMs, chownMs, saveMs, putMs: put.ms, packBytes: put.bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
