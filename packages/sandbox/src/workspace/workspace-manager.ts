import { chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, KeyedLock } from '@looplane/shared';
import type { WorkspaceMount } from '../types';
import type { EffectVerdict, WorkspaceEffect } from '@looplane/engine';
import { diskUsage, type DiskUsage } from './disk-usage';
import { effectBetween } from './workspace-effect';
import { checkCommitId, commitWorkTree, git, hasCommit, neutraliseAttributes, restoredCommit, type GitOptions, type RefusedPath } from '@looplane/workspaces';
import { chownTree } from './ownership';
import { UidAllocator } from './uid-allocator';

/** A session's workspace: the work tree bound at /workspace, and the uid that owns it. */
export interface Workspace extends WorkspaceMount {
  sessionId: string;
}

/** Who owns workspaces: a uid per session from a range (root workers), or one fixed uid. */
export type WorkspaceOwners = { kind: 'range'; base: number; count: number } | { kind: 'fixed'; uid: number; gid: number };

export interface WorkspaceManagerOptions {
  /** Directory holding every workspace; created 0711 so the sandbox uids can reach their own only. */
  root: string;
  /** Default: a uid per session from 900000..965535 when root; the worker's own uid otherwise. */
  owners?: WorkspaceOwners;
  gitPath?: string;
  /**
   * Makes a new commit durable before {@link WorkspaceManager.commit} returns it (the worker writes
   * it to the workspace store), so whatever records the commit id names files that exist.
   */
  persist?: (snapshot: WorkspaceSnapshot) => Promise<void>;
}

/**
 * A commit a caller is about to record: one just made on `base`, or (`base` null) the current one
 * when a call changed nothing, which must be durable too.
 */
export interface WorkspaceSnapshot {
  sessionId: string;
  gitDir: string;
  commit: string;
  base: string | null;
}

/** Decides a call's effect before its commit is kept; null keeps it. */
export type EffectGate = (effect: WorkspaceEffect) => EffectVerdict | null | Promise<EffectVerdict | null>;

/** A commit that stands: `changed` is false when the call changed nothing; `refused` names entries removed before it. */
export interface KeptCommit {
  commit: string;
  changed: boolean;
  refused: RefusedPath[];
}

/** A commit the gate did not keep: the work tree is back at `base`; `commit` (stored) holds the result. */
export interface HeldCommit {
  commit: string;
  base: string;
  effect: WorkspaceEffect;
  verdict: EffectVerdict;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * One git repository per session, managed by the worker. The git dir lives beside the work tree,
 * not in it, and only the work tree is bound into the sandbox, so a sandboxed process cannot
 * rewrite history. Layout: `<root>/<sessionId>/{meta.json, git/, work/}`.
 */
export class WorkspaceManager {
  private readonly owners: WorkspaceOwners;
  private readonly uids: UidAllocator | null;
  private readonly locks = new KeyedLock();

  constructor(private readonly options: WorkspaceManagerOptions) {
    const root = process.getuid?.() === 0;
    this.owners =
      options.owners ??
      (root ? { kind: 'range', base: 900_000, count: 65_536 } : { kind: 'fixed', uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 });
    this.uids = this.owners.kind === 'range' ? new UidAllocator(join(options.root, '.uids'), this.owners.base, this.owners.count) : null;
  }

  /** Creates the workspace of a session (an empty repository with one commit); returns the existing one if present. */
  async create(sessionId: string): Promise<Workspace> {
    return this.withLock(sessionId, async () => {
      const existing = await this.find(sessionId);
      if (existing) return existing;
      const workspace = await this.allocate(sessionId);
      await git(['init', '-q', '-b', 'main'], this.gitOptions(sessionId));
      await neutraliseAttributes(this.gitOptions(sessionId));
      await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'workspace created'], this.gitOptions(sessionId));
      // meta.json last: a workspace exists (find) only once it is complete.
      await this.writeMeta(workspace);
      return workspace;
    });
  }

  /** The workspace of a session; NOT_FOUND if it has none. */
  async get(sessionId: string): Promise<Workspace> {
    const workspace = await this.find(sessionId);
    if (!workspace) throw new AppError('NOT_FOUND', `session ${sessionId} has no workspace`);
    return workspace;
  }

  /** The commit the work tree was last committed at. */
  async head(sessionId: string): Promise<string> {
    await this.get(sessionId);
    return (await git(['rev-parse', 'HEAD'], this.gitOptions(sessionId))).stdout.trim();
  }

  /**
   * Commits the whole work tree (after a mutating tool call) and returns the commit id; when
   * nothing changed, returns the current commit with `changed: false` instead of an empty commit.
   * The returned commit is persisted (the `persist` option) before it is returned, changed or not.
   */
  async commit(sessionId: string, message: string): Promise<KeptCommit> {
    const result = await this.commitGoverned(sessionId, message, null);
    if ('held' in result) throw new Error('unreachable: no gate, nothing held');
    return result;
  }

  /**
   * Like {@link commit}, with the call's effect decided first: `gate` sees what the new commit
   * changed. A verdict it returns means the result does not stand: the commit is stored anyway (an
   * approver may keep it, on any host), and the work tree goes back to where the call started.
   */
  async commitGoverned(sessionId: string, message: string, gate: EffectGate | null): Promise<KeptCommit | { held: HeldCommit }> {
    const workspace = await this.get(sessionId);
    const options = this.gitOptions(sessionId);
    const { base, commit, refused } = await commitWorkTree(options, message);
    if (commit && gate) {
      const effect = { ...(await effectBetween(options, base, commit)), ...(refused.length > 0 ? { refused } : {}) };
      const verdict = await gate(effect);
      if (verdict) {
        // The base is what the session records from now on; the held commit is what an approver may keep.
        await this.options.persist?.({ sessionId, gitDir: options.gitDir, commit: base, base: null });
        await this.options.persist?.({ sessionId, gitDir: options.gitDir, commit, base });
        await git(['reset', '-q', '--hard', base], options);
        await git(['clean', '-q', '-ffdx'], options);
        await chownTree(workspace.path, workspace.uid, workspace.gid);
        return { held: { commit, base, effect, verdict } };
      }
    }
    // The caller records the commit: it is durable first (a new commit relative to its base; an
    // unchanged one, such as a new workspace's first commit, made sure of).
    await this.options.persist?.({ sessionId, gitDir: options.gitDir, commit: commit ?? base, base: commit ? base : null });
    return { commit: commit ?? base, changed: commit !== null, refused };
  }

  /**
   * Puts a session's workspace at `commit` on this host, whatever the local copy holds: none (a
   * new host, or one that lost its disk), an older one (the session ran elsewhere since), or a
   * newer one (a call committed here but never recorded). `fill` gives the git dir the objects it
   * lacks (from the workspace store); it is called only when the commit is not here. With a null
   * commit (no recorded file change yet) the workspace is the empty one it was created as.
   * Left untouched when it already is exactly at `commit` with a clean tree.
   */
  async materialise(sessionId: string, commit: string | null, fill: (gitDir: string) => Promise<void>): Promise<Workspace> {
    if (commit !== null) checkCommitId(commit);
    return this.withLock(sessionId, async () => {
      const options = this.gitOptions(sessionId);
      let workspace = await this.find(sessionId);
      const fresh = !workspace;
      if (!workspace) {
        // A directory without meta.json is a workspace whose making was cut short: start again.
        await rm(this.dirOf(sessionId), { recursive: true, force: true });
        workspace = await this.allocate(sessionId);
        await git(['init', '-q', '-b', 'main'], options);
        await neutraliseAttributes(options);
        if (commit === null) {
          await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'workspace created'], options);
          await this.writeMeta(workspace);
          return workspace;
        }
      }
      if (commit !== null && (fresh || !(await hasCommit(options, commit)))) await fill(options.gitDir);
      const target = commit ?? (await git(['rev-list', '--max-parents=0', 'HEAD'], options)).stdout.trim().split('\n').pop()!;
      const head = fresh ? null : (await git(['rev-parse', '-q', '--verify', 'HEAD'], { ...options, okCodes: [1] })).stdout.trim();
      const dirty = head === target ? (await git(['status', '--porcelain', '--untracked-files=all', '--ignored'], options)).stdout !== '' : true;
      if (dirty) {
        await git(['reset', '-q', '--hard', target], options);
        await git(['clean', '-q', '-ffdx'], options);
        await chownTree(workspace.path, workspace.uid, workspace.gid);
      }
      if (fresh) await this.writeMeta(workspace);
      return workspace;
    });
  }

  /**
   * Puts the session's files (all of them, or `paths`) back as they were at commit `source` (null:
   * the empty workspace), as a new commit on the current one, persisted before it is returned like
   * any commit, and the work tree moved to it. A person decided it, so no effect gate applies.
   * `fill` gives the git dir `source` when this host lacks it (a fork's ancestor's commit, or a
   * host that never ran the call that made it). `changed` is false when the files already were so.
   */
  async restoreFrom(
    sessionId: string,
    input: { source: string | null; paths: readonly string[] | null; message: string },
    fill: (gitDir: string) => Promise<void>,
  ): Promise<KeptCommit> {
    if (input.source !== null) checkCommitId(input.source);
    return this.withLock(sessionId, async () => {
      const workspace = await this.get(sessionId);
      const options = this.gitOptions(sessionId);
      if (input.source !== null && !(await hasCommit(options, input.source))) await fill(options.gitDir);
      const head = (await git(['rev-parse', 'HEAD'], options)).stdout.trim();
      const made = await restoredCommit(options, { head, source: input.source, paths: input.paths, message: input.message });
      const commit = made ?? head;
      await this.options.persist?.({ sessionId, gitDir: options.gitDir, commit, base: made ? head : null });
      await git(['reset', '-q', '--hard', commit], options);
      await git(['clean', '-q', '-ffdx'], options);
      await chownTree(workspace.path, workspace.uid, workspace.gid);
      return { commit, changed: made !== null, refused: [] };
    });
  }

  /**
   * Starts a session's workspace from files put there by `fill` (a repository fetched by the
   * worker, an unpacked upload, another session's files): a new workspace (whatever a cut-short
   * attempt left is removed), `fill` writes into the work tree as the worker (and may give the
   * workspace's git dir objects it already has, so committing them costs no second pass), and the result is
   * committed, given to the session's uid and persisted before it is returned, like a call's
   * commit. `fill` runs before anything sandboxed ever ran in the tree, so nothing there can race it.
   */
  async seed(sessionId: string, message: string, fill: (workTree: string, gitDir: string) => Promise<void>): Promise<KeptCommit> {
    return this.withLock(sessionId, async () => {
      const options = this.gitOptions(sessionId);
      const existing = await this.find(sessionId);
      await rm(this.dirOf(sessionId), { recursive: true, force: true });
      if (existing && this.uids) await this.uids.release(existing.uid);
      const workspace = await this.allocate(sessionId);
      await git(['init', '-q', '-b', 'main'], options);
      await neutraliseAttributes(options);
      await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'workspace created'], options);
      await fill(workspace.path, options.gitDir);
      const { base, commit, refused } = await commitWorkTree(options, message);
      await chownTree(workspace.path, workspace.uid, workspace.gid);
      const kept = commit ?? base;
      // Self-contained in the store: its base is this host's empty first commit, stored nowhere.
      await this.options.persist?.({ sessionId, gitDir: options.gitDir, commit: kept, base: null });
      await this.writeMeta(workspace);
      return { commit: kept, changed: commit !== null, refused };
    });
  }

  /** A unified diff between two commits, possibly of two workspaces (a fork and its parent). */
  async diff(from: { sessionId: string; commit: string }, to: { sessionId: string; commit: string }): Promise<string> {
    await Promise.all([this.get(from.sessionId), this.get(to.sessionId)]);
    const options: GitOptions = { ...this.gitOptions(to.sessionId), alternates: [join(this.gitOptions(from.sessionId).gitDir, 'objects')] };
    return (await git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', checkCommitId(from.commit), checkCommitId(to.commit), '--'], options)).stdout;
  }

  /** Puts the work tree back to a commit (default: the last one), untracked files removed. */
  async restore(sessionId: string, commitId?: string): Promise<void> {
    const workspace = await this.get(sessionId);
    const options = this.gitOptions(sessionId);
    await git(['reset', '-q', '--hard', commitId ? checkCommitId(commitId) : 'HEAD'], options);
    await git(['clean', '-q', '-ffdx'], options);
    await chownTree(workspace.path, workspace.uid, workspace.gid);
  }

  /** The git dir of a session's workspace (beside its work tree, never bound into a sandbox). */
  gitDirOf(sessionId: string): string {
    return this.gitOptions(sessionId).gitDir;
  }

  /** Disk use of the work tree. */
  async usage(sessionId: string): Promise<DiskUsage> {
    return diskUsage((await this.get(sessionId)).path);
  }

  /** Deletes a workspace and frees its uid. */
  async remove(sessionId: string): Promise<void> {
    const workspace = await this.find(sessionId);
    await rm(this.dirOf(sessionId), { recursive: true, force: true });
    if (workspace && this.uids) await this.uids.release(workspace.uid);
  }

  /**
   * Runs `fn` with the session's workspace to itself. The tools hold it for every call, so file
   * operations done by the worker never race a sandboxed process changing the same tree.
   */
  withLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(sessionId, fn);
  }

  private dirOf(sessionId: string): string {
    if (!SESSION_ID.test(sessionId)) throw new AppError('BAD_REQUEST', `invalid session id for a workspace: ${JSON.stringify(sessionId.slice(0, 80))}`);
    return join(this.options.root, sessionId);
  }

  private gitOptions(sessionId: string): GitOptions & { gitDir: string; workTree: string } {
    const dir = this.dirOf(sessionId);
    return { gitDir: join(dir, 'git'), workTree: join(dir, 'work') };
  }

  private async find(sessionId: string): Promise<Workspace | null> {
    const text = await readFile(join(this.dirOf(sessionId), 'meta.json'), 'utf8').catch(() => null);
    if (!text) return null;
    const meta = JSON.parse(text) as { uid: number; gid: number };
    return { sessionId, path: join(this.dirOf(sessionId), 'work'), uid: meta.uid, gid: meta.gid };
  }

  // Directories: root and session dir 0711 (traversable, not listable), git dir 0700 for the
  // worker only, work tree 0700 for the session uid only.
  private async allocate(sessionId: string): Promise<Workspace> {
    const dir = this.dirOf(sessionId);
    await mkdir(this.options.root, { recursive: true, mode: 0o711 });
    const uid = this.owners.kind === 'fixed' ? this.owners.uid : await this.uids!.allocate(sessionId);
    const gid = this.owners.kind === 'fixed' ? this.owners.gid : uid;
    const path = join(dir, 'work');
    await mkdir(dir, { recursive: true, mode: 0o711 });
    await mkdir(join(dir, 'git'), { recursive: true, mode: 0o700 });
    await mkdir(path, { recursive: true, mode: 0o700 });
    if ((await stat(path)).uid !== uid) await chown(path, uid, gid);
    return { sessionId, path, uid, gid };
  }

  private async writeMeta(workspace: Workspace): Promise<void> {
    await writeFile(join(this.dirOf(workspace.sessionId), 'meta.json'), JSON.stringify({ uid: workspace.uid, gid: workspace.gid }), { mode: 0o600 });
  }
}
