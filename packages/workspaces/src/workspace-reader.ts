import { mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, KeyedLock } from '@looplane/shared';
import { formatPatch } from './format-patch';
import { checkCommitId, git, gitBytes, gitStream, type GitOptions } from './git';
import { restoreCommit } from './snapshots';
import { workspacePathSchema } from './workspace-path';
import type { WorkspaceStore } from './workspace-store';

/** Git's empty tree: what a branch that never changed a file is read and compared as. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface WorkspaceEntry {
  name: string;
  /** Relative to the workspace root. */
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  /** Bytes, for files and symlinks. */
  size: number | null;
}

export interface WorkspaceFile {
  path: string;
  size: number;
  encoding: 'utf8' | 'base64';
  content: string;
  /** The file is larger than the cap: `content` holds its first `maxBytes`. */
  truncated: boolean;
}

export type WorkspaceNode = { kind: 'dir'; path: string; entries: WorkspaceEntry[] } | ({ kind: 'file' } & WorkspaceFile);

export interface WorkspaceReaderOptions {
  store: WorkspaceStore;
  /** A directory of this process's own: one bare repository per run, filled from the store on demand. */
  cacheDir: string;
  /** Past this size the least recently read runs are dropped from the cache (default 2048 MB). */
  cacheMb?: number;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Reads session files from the store, with no worker's disk: a bare repository per run under the
 * reader's cache, holding what it was asked for. Used by `sessions.files`, `sessions.diff`,
 * `sessions.patch` and the workspace download.
 */
export class WorkspaceReader {
  private readonly locks = new KeyedLock();
  private sweeping: Promise<void> | null = null;

  constructor(private readonly options: WorkspaceReaderOptions) {}

  /** A directory listing or one file, as it was at `commit` (null: the empty workspace). */
  async node(runId: string, commit: string | null, path: string, maxBytes: number): Promise<WorkspaceNode> {
    const clean = workspacePathSchema.parse(path);
    const repo = await this.repoAt(runId, commit);
    const tree = commit ?? EMPTY_TREE;
    const spec = clean === '' ? `${tree}^{tree}` : `${tree}:${clean}`;
    const type = (await git(['cat-file', '-t', spec], { ...repo, okCodes: [1, 128] })).stdout.trim();
    if (type === 'tree') return { kind: 'dir', path: clean, entries: await this.list(repo, spec, clean) };
    if (type === 'blob') return { kind: 'file', ...(await this.read(repo, spec, clean, maxBytes)) };
    throw new AppError('NOT_FOUND', `${clean || '/'} does not exist in the workspace at this point`);
  }

  /** A unified diff between two commits of a run (null: the empty workspace). */
  async diff(runId: string, from: string | null, to: string | null): Promise<string> {
    if (from === null && to === null) return '';
    let repo: GitOptions = { gitDir: '' };
    for (const commit of [from, to]) if (commit) repo = await this.repoAt(runId, commit);
    const args = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', from ?? EMPTY_TREE, to ?? EMPTY_TREE, '--'];
    return (await git(args, repo)).stdout;
  }

  /**
   * The `git format-patch` series from `base` to `head` of a run (one message per stored commit
   * between them; `base` must be an ancestor of `head`, as a session's earlier files are).
   * Empty when they are the same commit.
   */
  async patch(runId: string, base: string, head: string): Promise<string> {
    if (base === head) return '';
    await this.repoAt(runId, base);
    return formatPatch(await this.repoAt(runId, head), base, head);
  }

  /** The workspace at `commit` as a gzipped tarball, streamed (null: an empty archive). */
  async archive(runId: string, commit: string | null): Promise<Readable> {
    const repo = await this.repoAt(runId, commit);
    const child = gitStream(['archive', '--format=tar.gz', commit ?? EMPTY_TREE], repo);
    child.stderr.resume();
    return child.stdout;
  }

  /** The run's cache repository, holding `commit`; NOT_FOUND with the reason when the store cannot give it. */
  private async repoAt(runId: string, commit: string | null): Promise<GitOptions> {
    if (!RUN_ID.test(runId)) throw new AppError('BAD_REQUEST', 'invalid run id');
    if (commit) checkCommitId(commit);
    const gitDir = join(this.options.cacheDir, `${runId}.git`);
    await this.locks.run(runId, async () => {
      await mkdir(this.options.cacheDir, { recursive: true, mode: 0o700 });
      if (
        !(await stat(join(gitDir, 'HEAD')).then(
          () => true,
          () => false,
        ))
      ) {
        await rm(gitDir, { recursive: true, force: true });
        await git(['init', '-q', '--bare', gitDir], { gitDir });
      }
      if (commit && !(await restoreCommit(this.options.store, gitDir, runId, commit))) {
        const removed = await this.options.store.removal(runId);
        if (removed) throw new AppError('NOT_FOUND', `the files of this run were removed on ${removed.removedAt.toISOString()}: ${removed.reason}`);
        throw new AppError('NOT_FOUND', `commit ${commit} is not in the workspace store`);
      }
      const now = new Date();
      await utimes(gitDir, now, now).catch(() => undefined);
    });
    this.scheduleSweep();
    return { gitDir };
  }

  private async list(repo: GitOptions, spec: string, dir: string): Promise<WorkspaceEntry[]> {
    const { stdout } = await gitBytes(['ls-tree', '-z', '-l', spec], repo);
    const entries: WorkspaceEntry[] = [];
    for (const record of stdout.toString('utf8').split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [mode, kind, , size] = record.slice(0, tab).split(/\s+/);
      const name = record.slice(tab + 1);
      const type = kind === 'tree' ? 'dir' : kind === 'commit' ? 'submodule' : mode === '120000' ? 'symlink' : 'file';
      entries.push({ name, path: dir ? `${dir}/${name}` : name, type, size: size && size !== '-' ? Number(size) : null });
    }
    // Directories first, then by name, as a file browser shows them.
    return entries.sort((a, b) => ((a.type === 'dir') !== (b.type === 'dir') ? (a.type === 'dir' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private async read(repo: GitOptions, spec: string, path: string, maxBytes: number): Promise<WorkspaceFile> {
    const size = Number((await git(['cat-file', '-s', spec], repo)).stdout.trim());
    const { stdout } = await gitBytes(['cat-file', 'blob', spec], { ...repo, maxBytes });
    const truncated = size > stdout.length;
    const text = isText(stdout) ? stdout.toString('utf8') : null;
    return { path, size, truncated, encoding: text === null ? 'base64' : 'utf8', content: text ?? stdout.toString('base64') };
  }

  /** Keeps the cache under its cap: the least recently read runs go first (they can be fetched again). */
  private scheduleSweep(): void {
    if (this.sweeping) return;
    this.sweeping = this.sweep()
      .catch(() => undefined)
      .finally(() => {
        this.sweeping = null;
      });
  }

  private async sweep(): Promise<void> {
    const cap = (this.options.cacheMb ?? 2048) * 1024 * 1024;
    const names = await readdir(this.options.cacheDir).catch(() => [] as string[]);
    const repos = await Promise.all(
      names
        .filter((n) => n.endsWith('.git'))
        .map(async (name) => {
          const dir = join(this.options.cacheDir, name);
          return { name, dir, used: (await stat(dir)).mtimeMs, bytes: await treeBytes(dir) };
        }),
    );
    let total = repos.reduce((sum, r) => sum + r.bytes, 0);
    for (const repo of repos.sort((a, b) => a.used - b.used)) {
      if (total <= cap) break;
      const runId = repo.name.slice(0, -4);
      if (this.locks.held(runId)) continue;
      await this.locks.run(runId, () => rm(repo.dir, { recursive: true, force: true }));
      total -= repo.bytes;
    }
  }
}

/** UTF-8 text without NUL (what a viewer shows as text); anything else is sent as base64. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    // A cut at the size cap may split a character: still text if only the tail is broken.
    if (bytes.length < 4) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - 3));
      return true;
    } catch {
      return false;
    }
  }
}

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await treeBytes(path);
    else total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
