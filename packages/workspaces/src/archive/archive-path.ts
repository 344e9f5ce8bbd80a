/** The longest path (and symbolic link target) an archive entry may have, in bytes of UTF-8. */
const MAX_PATH_BYTES = 4096;
/** The longest single name in a path, in bytes (Linux's NAME_MAX). */
const MAX_NAME_BYTES = 255;

/** A checked path inside the tree, or why it was refused (the words after `entry "…"`). */
export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL and other control characters in a name is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

const refused = (reason: string): PathCheck => ({ ok: false, reason });

/**
 * An entry's name as a path relative to the tree's root: `a/b.txt`, or `` for the root itself
 * (`./`, which `tar -C dir .` writes). Empty and `.` names in it are dropped (`./a//b` is `a/b`);
 * refused: NUL and control characters, backslashes (a Windows separator another tool would
 * honour), absolute paths and drive letters, any `..`, and over-long paths or names. `.git` is a
 * name like any other here: what may be stored is the workspace store's to decide.
 */
export function archivePath(name: string): PathCheck {
  if (CONTROL.test(name)) return refused('has NUL or a control character in its name');
  if (name.includes('\\')) return refused('has a backslash in its name (archives separate names with /)');
  if (name.startsWith('/')) return refused('is an absolute path');
  if (/^[A-Za-z]:/.test(name)) return refused('starts with a drive letter');
  const names = name.split('/').filter((part) => part !== '' && part !== '.');
  if (names.includes('..')) return refused('has a ".." segment');
  const path = names.join('/');
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return refused(`has a path longer than ${MAX_PATH_BYTES} bytes`);
  if (names.some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES)) return refused(`has a name longer than ${MAX_NAME_BYTES} bytes`);
  return { ok: true, path };
}

/**
 * Where a symbolic link at `linkPath` (a checked path) that holds `target` points, as a path of
 * the tree (`` for the root); refused when it leaves the tree. The target must be relative, and
 * its `..` names may only lead it (`../../lib/x`): each then climbs one real directory of the
 * tree (an entry's parents are never links), so the lexical answer is the one the kernel reaches.
 * A `..` after a name could climb out of wherever another link led, so it is refused.
 */
export function symlinkTarget(linkPath: string, target: string): PathCheck {
  if (target === '') return refused('is a symbolic link with an empty target');
  if (CONTROL.test(target)) return refused('is a symbolic link whose target has NUL or a control character');
  if (target.includes('\\')) return refused('is a symbolic link whose target has a backslash');
  if (target.startsWith('/')) return refused(`is a symbolic link to the absolute path ${JSON.stringify(target)}`);
  if (Buffer.byteLength(target) > MAX_PATH_BYTES) return refused(`is a symbolic link whose target is longer than ${MAX_PATH_BYTES} bytes`);
  const at = linkPath.split('/').slice(0, -1);
  const names = target.split('/').filter((part) => part !== '' && part !== '.');
  let descended = false;
  for (const part of names) {
    if (part !== '..') {
      descended = true;
      at.push(part);
    } else if (descended) {
      return refused(`is a symbolic link whose target climbs (..) after naming a directory: ${JSON.stringify(target)}`);
    } else if (at.length === 0) {
      return refused(`is a symbolic link that points outside the archive: ${JSON.stringify(target)}`);
    } else {
      at.pop();
    }
  }
  return { ok: true, path: at.join('/') };
}
