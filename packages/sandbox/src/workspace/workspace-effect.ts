import type { FileChange, WorkspaceEffect } from '@looplane/engine';
import { checkCommitId, gitBytes, type GitOptions } from '@looplane/workspaces';

/** An effect recorded in an event lists at most this many files (the counts always cover all). */
export const RECORDED_CHANGES = 1000;
/** Blob bytes read to tell a truncation from an edit; past this, a shrunk file counts as truncated. */
const PREFIX_CHECK_BYTES = 64 * 1024 * 1024;
const ZERO = /^0+$/;

interface RawChange {
  status: string;
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  path: string;
}

/** `git diff-tree -r -z --raw` output: `:oldmode newmode oldsha newsha status\0path\0` per file. */
function parseRaw(out: Buffer): RawChange[] {
  const fields = out.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldSha, newSha, status] = (fields[i] as string).replace(/^:/, '').split(' ');
    if (!oldMode || !newMode || !oldSha || !newSha || !status) break;
    changes.push({ status: status.charAt(0), oldMode, newMode, oldSha, newSha, path: fields[i + 1] as string });
  }
  return changes;
}

async function objectSizes(options: GitOptions, shas: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const wanted = [...new Set(shas)].filter((sha) => !ZERO.test(sha));
  if (wanted.length === 0) return sizes;
  const { stdout } = await gitBytes(['cat-file', '--batch-check=%(objectname) %(objectsize)'], { ...options, input: wanted.map((s) => `${s}\n`).join('') });
  for (const line of stdout.toString('utf8').split('\n')) {
    const [sha, size] = line.split(' ');
    if (sha && size && /^\d+$/.test(size)) sizes.set(sha, Number(size));
  }
  return sizes;
}

/** Reads blobs with one `cat-file --batch`; the answer is `<sha> blob <size>\n<bytes>\n` per object. */
async function readBlobs(options: GitOptions, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  if (shas.length === 0) return blobs;
  const { stdout } = await gitBytes(['cat-file', '--batch'], { ...options, input: shas.map((s) => `${s}\n`).join('') });
  let at = 0;
  while (at < stdout.length) {
    const eol = stdout.indexOf(0x0a, at);
    if (eol < 0) break;
    const [sha, type, size] = stdout.subarray(at, eol).toString('utf8').split(' ');
    if (type !== 'blob' || !sha || !size) break;
    const start = eol + 1;
    blobs.set(sha, stdout.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return blobs;
}

/**
 * Which shrunk files were truncated: emptied, or cut to a prefix of at most half their content
 * (what truncate(2), `> f` and `head -c` leave). A file edited shorter elsewhere than at its end
 * is a modification, and so is one that lost a small tail (`sed -i '$d'`, an edit dropping the
 * last lines): those are edits, not data cut away.
 */
async function truncatedFiles(options: GitOptions, shrunk: readonly RawChange[], sizes: Map<string, number>): Promise<Set<string>> {
  const truncated = new Set<string>();
  const toRead: RawChange[] = [];
  let budget = PREFIX_CHECK_BYTES;
  for (const change of shrunk) {
    // Kept more than half: an edit, whatever it kept.
    if ((sizes.get(change.newSha) ?? 0) * 2 > (sizes.get(change.oldSha) ?? 0)) continue;
    const cost = (sizes.get(change.oldSha) ?? 0) + (sizes.get(change.newSha) ?? 0);
    if ((sizes.get(change.newSha) ?? 0) === 0 || cost > budget)
      truncated.add(change.path); // empty, or too big to tell: counted as a truncation
    else {
      budget -= cost;
      toRead.push(change);
    }
  }
  const blobs = await readBlobs(
    options,
    toRead.flatMap((c) => [c.oldSha, c.newSha]),
  );
  for (const change of toRead) {
    const before = blobs.get(change.oldSha);
    const after = blobs.get(change.newSha);
    if (!before || !after || before.subarray(0, after.length).equals(after)) truncated.add(change.path);
  }
  return truncated;
}

/**
 * What `commit` changed relative to `base`, file by file: added, modified, truncated (a prefix,
 * possibly nothing, of non-empty content kept), deleted, or moved (a deleted file whose exact
 * content reappears at a new path).
 */
export async function effectBetween(options: GitOptions, base: string, commit: string): Promise<WorkspaceEffect> {
  const { stdout } = await gitBytes(['diff-tree', '-r', '-z', '--raw', '--no-renames', checkCommitId(base), checkCommitId(commit), '--'], options);
  const raw = parseRaw(stdout);
  const sizes = await objectSizes(
    options,
    raw.flatMap((c) => [c.oldSha, c.newSha]),
  );
  const deletedByContent = new Map<string, RawChange[]>();
  for (const change of raw) {
    if (change.status !== 'D') continue;
    const same = deletedByContent.get(change.oldSha) ?? [];
    same.push(change);
    deletedByContent.set(change.oldSha, same);
  }
  const movedFrom = new Map<string, string>();
  const moved = new Set<string>();
  for (const change of raw) {
    if (change.status !== 'A') continue;
    const source = deletedByContent.get(change.newSha)?.find((d) => !moved.has(d.path));
    if (!source) continue;
    moved.add(source.path);
    movedFrom.set(change.path, source.path);
  }
  const shrunk = raw.filter((c) => c.status === 'M' && c.oldSha !== c.newSha && (sizes.get(c.newSha) ?? 0) < (sizes.get(c.oldSha) ?? 0));
  const truncated = await truncatedFiles(options, shrunk, sizes);
  const counts = { added: 0, modified: 0, truncated: 0, deleted: 0, moved: 0 };
  const changes: FileChange[] = [];
  for (const change of raw) {
    if (change.status === 'D' && moved.has(change.path)) continue;
    const oldBytes = ZERO.test(change.oldSha) ? null : (sizes.get(change.oldSha) ?? null);
    const newBytes = ZERO.test(change.newSha) ? null : (sizes.get(change.newSha) ?? null);
    const from = movedFrom.get(change.path);
    const kind: FileChange['kind'] =
      change.status === 'D' ? 'deleted' : change.status === 'A' ? (from ? 'moved' : 'added') : truncated.has(change.path) ? 'truncated' : 'modified';
    counts[kind]++;
    changes.push({ path: change.path, kind, ...(from ? { from, oldBytes: sizes.get(change.newSha) ?? null } : { oldBytes }), newBytes });
  }
  return { changes, truncatedList: false, counts };
}

/** The effect as an event records it: at most {@link RECORDED_CHANGES} files, the most telling first. */
export function recordedEffect(effect: WorkspaceEffect): WorkspaceEffect {
  if (effect.changes.length <= RECORDED_CHANGES) return effect;
  const order: Record<FileChange['kind'], number> = { deleted: 0, truncated: 1, moved: 2, modified: 3, added: 4 };
  const changes = [...effect.changes].sort((a, b) => order[a.kind] - order[b.kind]).slice(0, RECORDED_CHANGES);
  return { ...effect, changes, truncatedList: true };
}
