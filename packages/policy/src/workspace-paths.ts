/**
 * Paths as the policy sees them: everything is judged relative to the workspace root (where the
 * sandbox mounts the work tree). Pure string work, no file system: a symlink inside the workspace
 * that points out of it is the sandbox's to contain, not the policy's.
 */

/** Where the sandbox mounts the workspace, unless a context says otherwise. */
export const DEFAULT_WORKSPACE_ROOT = '/workspace';

/** Normalises an absolute POSIX path: `.` and `..` segments and repeated slashes removed. */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** A path resolved against a working directory; `absolute` is null when it cannot be known. */
export interface ResolvedPath {
  absolute: string | null;
  /** Relative to the workspace root ('' for the root itself); null when outside or unknown. */
  relative: string | null;
}

/** Where `~` (a home directory, never the workspace) resolves to: a path no workspace contains. */
export const HOME = '/~';

/** Resolves `path` against `cwd` (null: unknown, e.g. after a `cd "$X"`). */
export function resolvePath(path: string, cwd: string | null, root: string): ResolvedPath {
  const workspace = normalizeAbsolute(root);
  let absolute: string | null;
  if (path.startsWith('~')) absolute = normalizeAbsolute(`${HOME}${path.slice(1)}`);
  else if (path.startsWith('/')) absolute = normalizeAbsolute(path);
  else absolute = cwd === null ? null : normalizeAbsolute(`${cwd}/${path}`);
  if (absolute === null) return { absolute: null, relative: null };
  if (absolute === workspace) return { absolute, relative: '' };
  const prefix = workspace === '/' ? '/' : `${workspace}/`;
  return { absolute, relative: absolute.startsWith(prefix) ? absolute.slice(prefix.length) : null };
}
