import type { FileChange, WorkspaceEffect } from '@looplane/engine';
import { checkCommitId, gitBytes, type GitOptions } from '@looplane/workspaces';
import { isCut, lostBytes } from './lost-content';

/** An effect recorded in an event lists at most this many files (the counts always cover all). */
export const RECORDED_CHANGES = 1000;
/** Blob bytes read to measure lost content per call; past this, a changed file counts as wholly lost (an approver decides). */
const CONTENT_CHECK_BYTES = 64 * 1024 * 1024;
/** A cut that loses more than this is a truncation whatever fraction it kept (`head -c` keeping 51 % of a big file). */
const CUT_LOSS_BYTES = 1024;
/** git's rename detection: a deleted file whose content mostly reappears at a new path is a move (its loss still counted). */
const RENAME_SIMILARITY = '-M50%';
const ZERO = /^0+$/;

interface RawChange {
  status: string;
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  path: string;
  /** The old path of a rename. */
  from?: string;
}

/** `git diff-tree -r -z --raw -M` output: `:oldmode newmode oldsha newsha status\0path\0` per file, renames with two paths. */
function parseRaw(out: Buffer): RawChange[] {
  const fields = out.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  let i = 0;
  while (i + 1 < fields.length) {
    const [oldMode, newMode, oldSha, newSha, status] = (fields[i] as string).replace(/^:/, '').split(' ');
    if (!oldMode || !newMode || !oldSha || !newSha || !status) break;
    const letter = status.charAt(0);
    if (letter === 'R' || letter === 'C') {
      changes.push({ status: letter, oldMode, newMode, oldSha, newSha, from: fields[i + 1] as string, path: fields[i + 2] as string });
      i += 3;
    } else {
      changes.push({ status: letter, oldMode, newMode, oldSha, newSha, path: fields[i + 1] as string });
      i += 2;
    }
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
  const wanted = [...new Set(shas)];
  if (wanted.length === 0) return blobs;
  const { stdout } = await gitBytes(['cat-file', '--batch'], { ...options, input: wanted.map((s) => `${s}\n`).join('') });
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

/** What one edited file lost, and whether the edit was a cut (its new content one piece of the old). */
interface Measured {
  lost: number;
  cut: boolean;
}

/**
 * Measures the edited files (modified, or moved with changes) from their blobs, within
 * {@link CONTENT_CHECK_BYTES}; a file past the budget counts as wholly lost, so it is held rather
 * than waved through unmeasured.
 */
async function measureEdits(options: GitOptions, edited: readonly RawChange[], sizes: Map<string, number>): Promise<Map<RawChange, Measured>> {
  const measured = new Map<RawChange, Measured>();
  const toRead: RawChange[] = [];
  let budget = CONTENT_CHECK_BYTES;
  for (const change of edited) {
    const cost = (sizes.get(change.oldSha) ?? 0) + (sizes.get(change.newSha) ?? 0);
    if (cost > budget) measured.set(change, { lost: sizes.get(change.oldSha) ?? 0, cut: false });
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
    const before = blobs.get(change.oldSha) ?? Buffer.alloc(0);
    const after = blobs.get(change.newSha) ?? Buffer.alloc(0);
    measured.set(change, { lost: lostBytes(before, after), cut: isCut(before, after) });
  }
  return measured;
}

/**
 * A cut is a truncation when it emptied the file, kept at most half of it, or lost more than
 * {@link CUT_LOSS_BYTES}; an edit that drops a small tail (`sed -i '$d'`) is a modification.
 */
function isTruncation(oldBytes: number, newBytes: number, measured: Measured): boolean {
  if (!measured.cut) return false;
  return newBytes === 0 || newBytes * 2 <= oldBytes || measured.lost > CUT_LOSS_BYTES;
}

const isLink = (mode: string) => mode === '120000';

/**
 * What `commit` changed relative to `base`, file by file, with the content each change lost:
 * added (nothing lost), modified (what the edit replaced, wherever in the file), truncated (a cut),
 * deleted (everything), type_changed (a file became a link or the reverse: everything), or moved
 * (git's rename detection: a deleted file whose content mostly reappears elsewhere; what did not
 * reappear is lost).
 */
export async function effectBetween(options: GitOptions, base: string, commit: string): Promise<WorkspaceEffect> {
  const { stdout } = await gitBytes(
    ['diff-tree', '-r', '-z', '--raw', RENAME_SIMILARITY, '--no-ext-diff', checkCommitId(base), checkCommitId(commit), '--'],
    options,
  );
  const raw = parseRaw(stdout);
  const sizes = await objectSizes(
    options,
    raw.flatMap((c) => [c.oldSha, c.newSha]),
  );
  const edited = raw.filter((c) => (c.status === 'M' || c.status === 'R') && c.oldSha !== c.newSha && isLink(c.oldMode) === isLink(c.newMode));
  const measured = await measureEdits(options, edited, sizes);
  const counts = { added: 0, modified: 0, truncated: 0, deleted: 0, moved: 0, type_changed: 0 };
  const changes: FileChange[] = [];
  let totalLost = 0;
  for (const change of raw) {
    const oldBytes = ZERO.test(change.oldSha) ? null : (sizes.get(change.oldSha) ?? null);
    const newBytes = ZERO.test(change.newSha) ? null : (sizes.get(change.newSha) ?? null);
    const edit = measured.get(change);
    let kind: FileChange['kind'];
    let lost = 0;
    if (change.status === 'A' || change.status === 'C') kind = 'added';
    else if (change.status === 'D') {
      kind = 'deleted';
      lost = oldBytes ?? 0;
    } else if (change.status === 'T' || isLink(change.oldMode) !== isLink(change.newMode)) {
      kind = 'type_changed';
      lost = oldBytes ?? 0;
    } else if (change.status === 'R') {
      kind = 'moved';
      lost = edit?.lost ?? 0;
    } else {
      lost = edit?.lost ?? 0;
      kind = edit && isTruncation(oldBytes ?? 0, newBytes ?? 0, edit) ? 'truncated' : 'modified';
    }
    counts[kind]++;
    totalLost += lost;
    changes.push({
      path: change.path,
      kind,
      ...(kind === 'moved' && change.from ? { from: change.from } : {}),
      oldBytes: kind === 'added' ? null : oldBytes,
      newBytes,
      lostBytes: lost,
    });
  }
  return { changes, truncatedList: false, counts, lostBytes: totalLost };
}

/** The effect as an event records it: at most {@link RECORDED_CHANGES} files, the most telling first. */
export function recordedEffect(effect: WorkspaceEffect): WorkspaceEffect {
  if (effect.changes.length <= RECORDED_CHANGES) return effect;
  // The most content lost first: what an approver must see.
  const changes = [...effect.changes].sort((a, b) => (b.lostBytes ?? 0) - (a.lostBytes ?? 0)).slice(0, RECORDED_CHANGES);
  return { ...effect, changes, truncatedList: true };
}
