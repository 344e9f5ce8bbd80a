import { z } from 'zod';

/** The longest path accepted inside a workspace (bytes of UTF-8 are checked by git itself). */
export const MAX_PATH_CHARS = 4096;

/**
 * A path inside a workspace, relative to its root: `src/app.ts`, `src/` or `` (the root). Refused
 * with a message that says why: absolute paths, `..` or `.` segments, empty segments in the
 * middle, backslashes, NUL and other control characters, `.git` (the store holds no git dir), and
 * anything longer than {@link MAX_PATH_CHARS}. Returns the path without a trailing slash.
 */
export const workspacePathSchema = z
  .string()
  .max(MAX_PATH_CHARS, `must be at most ${MAX_PATH_CHARS} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL and other control characters in a path is the point.
  .refine((path) => !/[\u0000-\u001f\u007f]/.test(path), 'must not contain NUL or control characters')
  .refine((path) => !path.startsWith('/'), 'must be relative to the workspace root (no leading /)')
  .refine((path) => !path.includes('\\'), 'must use / as the separator')
  .transform((path) => path.replace(/\/+$/, ''))
  .refine(
    (path) => path === '' || path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'),
    'must not contain empty, . or .. segments',
  )
  .refine((path) => path.split('/')[0] !== '.git', 'must not name .git');
