import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { AppError } from '@looplane/shared';

/** A path inside a workspace: its real host path and the workspace-relative form shown to the model. */
export interface InsidePath {
  real: string;
  relative: string;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/**
 * Resolves a tool's path argument inside the workspace. Accepts workspace-relative paths and
 * absolute ones under /workspace; refuses anything that leaves the workspace, lexically (`..`) or
 * through a symlink (every existing component is resolved with realpath). The caller must hold the
 * workspace lock, so no sandboxed process can swap a component between this check and the use.
 */
export async function resolveInside(root: string, input: string): Promise<InsidePath> {
  if (input.includes('\0')) throw new AppError('BAD_REQUEST', 'path contains a NUL byte');
  let rel = input.trim() || '.';
  if (isAbsolute(rel)) {
    const normal = posix.normalize(rel);
    if (normal !== '/workspace' && !normal.startsWith('/workspace/')) throw new AppError('BAD_REQUEST', `absolute paths must be under /workspace: ${input}`);
    rel = normal.slice('/workspace'.length).replace(/^\//, '') || '.';
  }
  const realRoot = await realpath(root);
  const lexical = join(realRoot, rel);
  if (!inside(realRoot, lexical)) throw new AppError('BAD_REQUEST', `path leaves the workspace: ${input}`);
  const real = await realpathAllowMissing(lexical);
  if (!inside(realRoot, real)) throw new AppError('BAD_REQUEST', `path leads outside the workspace through a symlink: ${input}`);
  return { real, relative: relative(realRoot, real) || '.' };
}

// realpath of the deepest existing ancestor plus the missing rest. A dangling symlink is refused:
// writing through it would create its target, wherever that is.
async function realpathAllowMissing(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const link = await lstat(path).catch(() => null);
    if (link?.isSymbolicLink()) throw new AppError('BAD_REQUEST', `refusing a dangling symlink: ${basename(path)}`);
    const parent = dirname(path);
    if (parent === path) throw error;
    return join(await realpathAllowMissing(parent), basename(path));
  }
}
