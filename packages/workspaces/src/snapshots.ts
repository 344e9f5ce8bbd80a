import { AppError } from '@looplane/shared';
import { checkCommitId, git, gitBytes, type GitOptions } from './git';
import type { PackEntry, WorkspaceStore } from './workspace-store';

/**
 * A restore applies at most this many packs: the pack of every `MAX_DEPTH`-th commit of a chain is
 * self-contained, so a session with thousands of mutating calls still restores in bounded steps.
 */
export const MAX_DEPTH = 200;

/** How many stored commits the saver remembers (their depth), to skip a query per save. */
const REMEMBERED = 4096;

/** The objects of `commit` that `base` does not reach (every object of it when `base` is null), as a pack. */
export async function packCommit(gitDir: string, commit: string, base: string | null): Promise<Buffer> {
  const input = `${checkCommitId(commit)}\n${base ? `^${checkCommitId(base)}\n` : ''}`;
  const { stdout } = await gitBytes(['pack-objects', '--revs', '--stdout', '-q', '--delta-base-offset'], { gitDir, input });
  return stdout;
}

/** Adds a pack's objects to a repository. */
export async function applyPack(gitDir: string, pack: Buffer): Promise<void> {
  await gitBytes(['index-pack', '--stdin'], { gitDir, input: pack });
}

/** Which of `commits` a repository holds (one `cat-file --batch-check`). */
async function presentCommits(gitDir: string, commits: readonly string[]): Promise<Set<string>> {
  if (commits.length === 0) return new Set();
  const { stdout } = await gitBytes(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { gitDir, input: commits.map((c) => `${c}\n`).join('') });
  const present = new Set<string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const [id, type] = line.split(' ');
    if (id && type === 'commit') present.add(id);
  }
  return present;
}

/** Whether a repository holds a commit. */
export async function hasCommit(options: GitOptions, commit: string): Promise<boolean> {
  const { code } = await git(['cat-file', '-e', `${checkCommitId(commit)}^{commit}`], { ...options, okCodes: [1, 128] });
  return code === 0;
}

export interface SaveRequest {
  gitDir: string;
  runId: string;
  sessionId: string;
  commit: string;
  /** The commit the work tree was at before (the new commit's parent); null for a first commit. */
  base: string | null;
}

/**
 * Writes commits to the store as tool calls make them. `save` resolves once the commit is durable,
 * which is what lets its `tool.finished` event name it.
 */
export class SnapshotWriter {
  /** `runId commit` → depth, for commits known to be stored (most recent last). */
  private readonly known = new Map<string, number>();

  constructor(
    readonly store: WorkspaceStore,
    /** Every this-many-th pack of a chain is self-contained (default {@link MAX_DEPTH}). */
    private readonly maxDepth = MAX_DEPTH,
  ) {}

  /** Stores a commit (relative to `base` when the store holds it); returns the bytes added (0: stored already). */
  async save(request: SaveRequest): Promise<number> {
    const key = `${request.runId} ${request.commit}`;
    if (this.known.has(key)) return 0;
    let base = request.base && request.base !== request.commit ? request.base : null;
    let depth = 0;
    if (base) {
      const baseDepth = this.known.get(`${request.runId} ${base}`) ?? (await this.storedDepth(request.runId, base));
      if (baseDepth === null || baseDepth + 1 >= this.maxDepth) base = null;
      else depth = baseDepth + 1;
    }
    const pack = await packCommit(request.gitDir, request.commit, base);
    await this.store.put({ runId: request.runId, commit: request.commit, base, sessionId: request.sessionId, depth }, pack);
    this.remember(key, depth);
    return pack.length;
  }

  /** Makes sure the store holds `commit` (a workspace made before the store existed uploads it whole). */
  async ensure(request: Omit<SaveRequest, 'base'>): Promise<void> {
    const key = `${request.runId} ${request.commit}`;
    if (this.known.has(key)) return;
    const depth = await this.storedDepth(request.runId, request.commit);
    if (depth !== null) this.remember(key, depth);
    else await this.save({ ...request, base: null });
  }

  /** Tells the writer a commit is stored, at `depth` (read along with something else). */
  stored(runId: string, commit: string, depth: number): void {
    this.remember(`${runId} ${commit}`, depth);
  }

  private async storedDepth(runId: string, commit: string): Promise<number | null> {
    const chain = await this.store.chain(runId, commit);
    return chain[0]?.depth ?? null;
  }

  private remember(key: string, depth: number): void {
    this.known.delete(key);
    this.known.set(key, depth);
    if (this.known.size > REMEMBERED) this.known.delete(this.known.keys().next().value as string);
  }
}

/**
 * Gives a repository every object of `commit` from the store, fetching only the packs it lacks
 * (its chain down to a commit the repository holds). Returns false when the store has no such
 * commit; the caller says why (removed by retention, or never stored).
 */
export async function restoreCommit(store: WorkspaceStore, gitDir: string, runId: string, commit: string): Promise<boolean> {
  checkCommitId(commit);
  const chain = await store.chain(runId, commit);
  if (chain.length === 0) return false;
  const present = await presentCommits(
    gitDir,
    chain.map((entry) => entry.commit),
  );
  const needed: PackEntry[] = [];
  for (const entry of chain) {
    if (present.has(entry.commit)) break;
    needed.push(entry);
  }
  // Oldest first, a few at a time: each pack is self-contained in its deltas, so order only
  // matters for a crash half-way (the older objects are then already in place).
  for (const entry of needed.reverse()) {
    const pack = await store.read(entry);
    await applyPack(gitDir, pack);
  }
  if (!(await hasCommit({ gitDir }, commit)))
    throw new AppError('INTERNAL', `commit ${commit} is still missing after applying its ${needed.length} pack(s) from the store`);
  return true;
}
