/** One file's part of a unified git diff, as the diff view takes it. */
export interface DiffFilePart {
  /** The file's path after the change (before it, for a deletion). */
  path: string;
  oldPath: string | null;
  newPath: string | null;
  /** This file's whole part of the diff, `diff --git` line included. */
  text: string;
  /** False for a part with no hunks (a binary file, a mode change): there are no lines to show. */
  hasHunks: boolean;
}

const side = (line: string | undefined, prefix: string): string | null => {
  if (!line) return null;
  const name = line.slice(4).replace(/\t.*$/, '');
  return name === '/dev/null' ? null : name.startsWith(prefix) ? name.slice(prefix.length) : name;
};

/**
 * Splits a multi-file unified diff (what `git diff` prints, as `sessions.callDiff` sends it) into
 * one part per file. Paths come from the `---`/`+++` lines (`/dev/null` for an added or deleted
 * side), or from the `diff --git a/… b/…` header when there are none (a binary file).
 */
export function splitDiff(text: string): DiffFilePart[] {
  const parts: DiffFilePart[] = [];
  const chunks = text.split(/^(?=diff --git )/m).filter((chunk) => chunk.startsWith('diff --git '));
  for (const chunk of chunks) {
    const lines = chunk.split('\n');
    const oldLine = lines.find((l) => l.startsWith('--- '));
    const newLine = lines.find((l) => l.startsWith('+++ '));
    let oldPath = side(oldLine, 'a/');
    let newPath = side(newLine, 'b/');
    if (!oldLine && !newLine) {
      const header = /^diff --git a\/(.+) b\/(.+)$/.exec(lines[0] ?? '');
      oldPath = lines.some((l) => l.startsWith('new file mode')) ? null : (header?.[1] ?? null);
      newPath = lines.some((l) => l.startsWith('deleted file mode')) ? null : (header?.[2] ?? null);
    }
    parts.push({
      path: newPath ?? oldPath ?? '(unknown)',
      oldPath,
      newPath,
      text: chunk.endsWith('\n') ? chunk : `${chunk}\n`,
      hasHunks: lines.some((l) => l.startsWith('@@ ')),
    });
  }
  return parts;
}
