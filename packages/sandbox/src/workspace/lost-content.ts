/**
 * How much of a file's earlier content a change lost, wherever in the file: the bytes of `before`
 * that do not reappear in `after`. The common prefix and suffix are kept; in between, the old
 * lines are matched against the new ones as a multiset (a line moved within the changed region is
 * not lost; a line overwritten, emptied, encrypted or cut away is). The prefix and suffix are
 * taken both as they are (an edit inside one long line loses only what it replaced) and at line
 * boundaries (moved lines are matched whole); each is a way the old bytes reappear, so the smaller
 * count stands. Linear in the sizes, so it can run on every call.
 */
export function lostBytes(before: Buffer, after: Buffer): number {
  if (before.length === 0) return 0;
  const prefix = commonPrefix(before, after);
  const suffix = commonSuffix(before, after, prefix);
  const exact = lostBetween(before, after, prefix, suffix);
  if (exact === 0) return 0;
  // (lastIndexOf with a negative offset counts from the end: a zero prefix stays zero.)
  const linePrefix = prefix === 0 ? 0 : before.lastIndexOf(0x0a, prefix - 1) + 1;
  const lineSuffix = suffix === 0 ? 0 : lineStartSuffix(before, suffix);
  return Math.min(exact, lostBetween(before, after, linePrefix, lineSuffix));
}

/** The suffix shortened to begin right after a newline of `before` (or at its start). */
function lineStartSuffix(before: Buffer, suffix: number): number {
  const start = before.length - suffix;
  if (start === 0 || before[start - 1] === 0x0a) return suffix;
  const next = before.indexOf(0x0a, start);
  return next < 0 ? 0 : before.length - (next + 1);
}

function lostBetween(before: Buffer, after: Buffer, prefix: number, suffix: number): number {
  const oldMiddle = before.subarray(prefix, before.length - suffix);
  const newMiddle = after.subarray(prefix, after.length - suffix);
  if (oldMiddle.length === 0) return 0;
  if (newMiddle.length === 0) return oldMiddle.length;
  const available = new Map<string, number>();
  for (const line of lines(newMiddle)) available.set(line, (available.get(line) ?? 0) + 1);
  let lost = 0;
  for (const line of lines(oldMiddle)) {
    const left = available.get(line) ?? 0;
    if (left > 0) available.set(line, left - 1);
    else lost += line.length;
  }
  return lost;
}

/**
 * Whether `after` is one piece of `before` (a prefix, a suffix or a middle part) and nothing else:
 * the file was cut, not edited. `head -c`, `tail -c`, `truncate`, `dd count=` leave such files.
 */
export function isCut(before: Buffer, after: Buffer): boolean {
  if (after.length >= before.length) return false;
  if (commonPrefix(before, after) === after.length || commonSuffix(before, after, 0) === after.length) return true;
  // A piece from the middle: a search, bounded so that a huge file cannot make it slow.
  return before.length <= MIDDLE_SEARCH_BYTES && before.indexOf(after) >= 0;
}

const MIDDLE_SEARCH_BYTES = 4 * 1024 * 1024;

// Line keys are latin1 strings: one character per byte, so lengths are byte counts.
function lines(bytes: Buffer): string[] {
  return bytes.toString('latin1').match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Length of the common prefix, found by halving (each step one memcmp). */
function commonPrefix(a: Buffer, b: Buffer): number {
  let low = 0;
  let high = Math.min(a.length, b.length);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (a.subarray(low, mid).equals(b.subarray(low, mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Length of the common suffix, not reaching into the first `prefix` bytes of either. */
function commonSuffix(a: Buffer, b: Buffer, prefix: number): number {
  let low = 0;
  let high = Math.min(a.length, b.length) - prefix;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (a.subarray(a.length - mid, a.length - low).equals(b.subarray(b.length - mid, b.length - low))) low = mid;
    else high = mid - 1;
  }
  return low;
}
