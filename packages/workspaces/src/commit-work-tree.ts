import { lstat, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '@looplane/shared';
import { checkCommitId, git, gitBytes, gitScript, type GitOptions } from './git';

/**
 * Attributes that make git rewrite content on its way in or out (`ident`, eol conversion,
 * filters, working-tree encodings, archive substitutions). `$GIT_DIR/info/attributes` has the
 * highest precedence, so these override any `.gitattributes` the agent writes: the worker's git
 * stores and restores bytes exactly as they are.
 */
const NEUTRAL_ATTRIBUTES = '* -text -eol -ident -filter -working-tree-encoding -export-subst -export-ignore\n';

/**
 * The scan for entries a commit cannot store, as a shell function taking find's action. It prints
 * special files (FIFOs, sockets, devices), every `.git` other than the work tree's own (nested
 * repositories, and names git reserves: `.GIT`, `.git.`, `git~1`).
 */
const SCAN = `scan() { find "$GIT_WORK_TREE" -mindepth 1 \\( -path "$GIT_WORK_TREE/.git" -prune \\) -o \\( -iname .git -prune "$@" \\) -o \\( \\( \\( ! -type f ! -type d ! -type l \\) -o -iregex '.*/\\.git[. ]+' -o -iname 'git~1' \\) "$@" \\); }`;

/**
 * One process start for a commit, in the common case: ensures the neutral attributes, scans
 * (unless told the tree was prepared), then adds and commits. Prints `base` when nothing changed,
 * `base commit` after a new commit, or `scan base` and the scan's NUL-separated `type path` entries.
 */
const COMMIT_SCRIPT = `${SCAN}
base=$(git rev-parse HEAD)
[ -f "$GIT_DIR/info/attributes" ] || { mkdir -p "$GIT_DIR/info"; printf '%s' "$LOOPLANE_ATTRIBUTES" > "$GIT_DIR/info/attributes"; }
if [ -z "$LOOPLANE_PREPARED" ] && [ -n "$(scan -print -quit)" ]; then printf 'scan %s\\0' "$base"; scan -printf '%y %P\\0'; exit 0; fi
if [ -n "$LOOPLANE_PATHSPECS" ]; then git add -A --force --pathspec-from-file="$GIT_DIR/looplane-pathspecs" --pathspec-file-nul
else git add -A --force; fi
if git diff --cached --quiet; then echo "$base"; exit 0; fi
git commit -q --no-verify -m "$LOOPLANE_COMMIT_MESSAGE"
echo "$base $(git rev-parse HEAD)"`;

/** An entry a workspace cannot keep, removed before the commit; the reason is for the model and the log. */
export interface RefusedPath {
  path: string;
  reason: string;
}

export interface CommitResult {
  base: string;
  commit: string | null;
  /** Entries removed from the work tree because no commit can hold them. */
  refused: RefusedPath[];
}

const SPECIAL: Record<string, string> = {
  p: 'a FIFO (named pipe)',
  s: 'a socket',
  b: 'a block device',
  c: 'a character device',
  D: 'a door',
};

interface ScanEntry {
  type: string;
  path: string;
}

function parseScan(out: string): { base: string; entries: ScanEntry[] } | null {
  if (!out.startsWith('scan ')) return null;
  const [head, ...rest] = out.split('\0');
  const entries = rest.filter(Boolean).map((item) => ({ type: item.slice(0, 1), path: item.slice(2) }));
  return { base: checkCommitId((head as string).slice('scan '.length).trim()), entries };
}

/**
 * Makes the tree storable: removes what no commit can hold (each named in the result), and for
 * each nested repository (a directory with its own `.git`) stores its files as ordinary files (its
 * own history stays on this host only). Returns the pathspecs for the add: nested repositories
 * with no file to store are left out, as git would otherwise refuse the whole add.
 */
async function prepare(options: GitOptions & { workTree: string }, entries: ScanEntry[]): Promise<{ refused: RefusedPath[]; pathspecs: string[] }> {
  const refused: RefusedPath[] = [];
  const excluded: string[] = [];
  for (const entry of entries) {
    const full = join(options.workTree, entry.path);
    const name = entry.path.split('/').pop() ?? entry.path;
    if (SPECIAL[entry.type]) {
      // unlink never opens the entry: a FIFO cannot block it.
      await unlink(full);
      refused.push({ path: entry.path, reason: `${SPECIAL[entry.type]}: a workspace keeps regular files, directories and symlinks only` });
    } else if (name === '.git' && entry.type === 'd') {
      const repo = dirname(entry.path);
      if (!(await adoptNestedRepository(options, repo))) excluded.push(repo);
    } else {
      // rm does not follow links, and find reached the entry without following any.
      await rm(full, { recursive: true, force: true });
      refused.push({ path: entry.path, reason: 'git reserves this name (a variant of .git), so no commit can hold it' });
    }
  }
  const pathspecs = excluded.length > 0 ? ['.', ...excluded.map((path) => `:(exclude,literal)${path}`)] : [];
  // find lists in directory order; the model and the log read them by path.
  refused.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { refused, pathspecs };
}

/**
 * Stores a nested repository's files as ordinary files: once some are in the index, `git add -A`
 * treats the directory as a directory. False when it has no file to store.
 */
async function adoptNestedRepository(options: GitOptions & { workTree: string }, repo: string): Promise<boolean> {
  const tracked = await git(['ls-files', '-z', '--', `:(literal)${repo}/`], options);
  if (tracked.stdout.length > 0) return true;
  const { stdout } = await gitScript(
    `cd "$GIT_WORK_TREE" && find "./$LOOPLANE_REPO" -path "./$LOOPLANE_REPO/.git" -prune -o \\( -type f -o -type l \\) -printf '%P\\0'`,
    options,
    { LOOPLANE_REPO: repo },
  );
  const files = stdout
    .split('\0')
    .filter(Boolean)
    .map((file) => `${repo}/${file}`)
    .filter((file) => !file.split('/').some((part) => part.toLowerCase() === '.git'));
  if (files.length === 0) return false;
  await gitBytes(['update-index', '--add', '-z', '--stdin'], { ...options, input: files.map((f) => `${f}\0`).join('') });
  return true;
}

/**
 * Commits the whole work tree, files the tree's own `.gitignore` lists included (forced: an
 * ignore file the agent wrote must not keep its files out of the store, they would be lost on
 * another host), with the work tree's attributes neutralised. Entries no commit can hold never
 * break it: they are removed and listed in `refused`. `commit` is null when nothing changed (no
 * empty commit is made).
 */
export async function commitWorkTree(options: GitOptions & { workTree: string }, message: string): Promise<CommitResult> {
  const vars = { LOOPLANE_COMMIT_MESSAGE: message.slice(0, 1000) || 'tool call', LOOPLANE_ATTRIBUTES: NEUTRAL_ATTRIBUTES };
  const first = await gitScript(COMMIT_SCRIPT, options, vars);
  const scanned = parseScan(first.stdout);
  if (!scanned) return { ...parseCommit(first.stdout), refused: [] };
  const { refused, pathspecs } = await prepare(options, scanned.entries);
  // Pathspecs may hold any byte but NUL, so they go through a file in the git dir (the worker's own), not the environment.
  if (pathspecs.length > 0) await writeFile(join(options.gitDir, 'looplane-pathspecs'), pathspecs.map((p) => `${p}\0`).join(''), { mode: 0o600 });
  const second = await gitScript(COMMIT_SCRIPT, options, { ...vars, LOOPLANE_PREPARED: '1', ...(pathspecs.length > 0 ? { LOOPLANE_PATHSPECS: '1' } : {}) });
  return { ...parseCommit(second.stdout), refused };
}

function parseCommit(stdout: string): { base: string; commit: string | null } {
  const [base, commit] = stdout.trim().split(' ');
  if (!base) throw new AppError('INTERNAL', 'the workspace commit printed nothing');
  return { base: checkCommitId(base), commit: commit ? checkCommitId(commit) : null };
}

/** Writes the neutral attributes into a git dir (new workspaces, and before restoring files into a tree). */
export async function neutraliseAttributes(options: GitOptions): Promise<void> {
  const exists = await lstat(join(options.gitDir, 'info', 'attributes')).catch(() => null);
  if (exists) return;
  await gitScript(`mkdir -p "$GIT_DIR/info" && printf '%s' "$LOOPLANE_ATTRIBUTES" > "$GIT_DIR/info/attributes"`, options, {
    LOOPLANE_ATTRIBUTES: NEUTRAL_ATTRIBUTES,
  });
}
