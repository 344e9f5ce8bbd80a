import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkCommitId, git, gitBytes, type GitOptions } from './git';

/** What to put back: the whole tree of `source` (no `paths`), or only `paths` as they were in it. */
export interface RestoreTreeInput {
  /** The commit the work tree is at now: the new commit's parent. */
  head: string;
  /** The commit whose files are restored; null: the empty workspace (before any file was written). */
  source: string | null;
  /** Workspace-relative files or directories (no trailing slash, `workspacePathSchema`'s form); null: everything. */
  paths: readonly string[] | null;
  message: string;
}

/**
 * One `ls-tree -r -z` record, `mode type object\tpath`, kept as the bytes git printed (a name
 * that is not UTF-8 goes back unchanged), and its path as text, to match against.
 */
interface TreeEntry {
  record: Buffer;
  path: string;
}

/**
 * Makes the commit a restore records, on top of `head`, without touching the work tree: its tree
 * is `source`'s whole tree, or `head`'s with each of `paths` replaced by what it was in `source`
 * (every file under a directory path; a path `source` does not have is removed). Built from
 * objects alone (a temporary index, never the work tree's), so nothing a sandboxed process left
 * in the tree is read or followed, and paths are matched literally (no pathspec magic). Returns
 * null when the result is `head`'s tree already: nothing to restore.
 */
export async function restoredCommit(options: GitOptions, input: RestoreTreeInput): Promise<string | null> {
  const head = checkCommitId(input.head);
  const tree = input.paths === null ? await sourceTree(options, input.source) : await mergedTree(options, head, input.source, input.paths);
  const headTree = (await git(['rev-parse', `${head}^{tree}`], options)).stdout.trim();
  if (tree === headTree) return null;
  return (await git(['commit-tree', tree, '-p', head, '-m', input.message], options)).stdout.trim();
}

/** The tree of `source`, or the empty tree (written, so a commit can name it). */
async function sourceTree(options: GitOptions, source: string | null): Promise<string> {
  if (source !== null) return (await git(['rev-parse', `${checkCommitId(source)}^{tree}`], options)).stdout.trim();
  return (await gitBytes(['mktree', '-z'], { ...options, input: '' })).stdout.toString('utf8').trim();
}

/** `head`'s tree with every entry at or under `paths` replaced by `source`'s entries there. */
async function mergedTree(options: GitOptions, head: string, source: string | null, paths: readonly string[]): Promise<string> {
  const restored = new Set(paths);
  const covered = (entry: TreeEntry) => prefixes(entry.path).some((prefix) => restored.has(prefix));
  const kept = (await entries(options, head)).filter((entry) => !covered(entry));
  const taken = source === null ? [] : (await entries(options, checkCommitId(source))).filter(covered);
  const index = { ...options, indexFile: join(options.gitDir, `looplane-restore-${randomBytes(8).toString('hex')}.index`) };
  try {
    await git(['read-tree', '--empty'], index);
    const records = [...kept, ...taken].flatMap((entry) => [entry.record, NUL]);
    if (records.length > 0) await gitBytes(['update-index', '-z', '--index-info'], { ...index, input: Buffer.concat(records) });
    return (await git(['write-tree'], index)).stdout.trim();
  } finally {
    await rm(index.indexFile, { force: true });
  }
}

/** Every blob (and gitlink) of a commit's tree, recursively. */
async function entries(options: GitOptions, commit: string): Promise<TreeEntry[]> {
  const { stdout } = await gitBytes(['ls-tree', '-r', '-z', '--full-tree', commit], options);
  const found: TreeEntry[] = [];
  for (let start = 0; start < stdout.length; ) {
    const end = stdout.indexOf(0, start);
    const record = stdout.subarray(start, end < 0 ? stdout.length : end);
    start = end < 0 ? stdout.length : end + 1;
    if (record.length > 0) found.push({ record, path: record.subarray(record.indexOf(0x09) + 1).toString('utf8') });
  }
  return found;
}

const NUL = Buffer.from([0]);

/** `a/b/c` → `a`, `a/b`, `a/b/c`: the paths a restore of any of them covers it by. */
function prefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
