import { z } from 'zod';

// What an effect is (the worker computes it, events record it) is the engine's; rules match it here.
export {
  FILE_CHANGES,
  fileChangeSchema,
  workspaceEffectSchema,
  lostBytesOf,
  type FileChange,
  type FileChangeKind,
  type WorkspaceEffect,
} from '@looplane/engine';

/**
 * A rule's `effect` conditions: they describe what a mutating call (shell, write_file, edit_file)
 * did to the workspace, and are decided on its result, after it ran and before its changes are
 * kept. `paths` narrows the files the other conditions look at (globs relative to the workspace;
 * `!` excludes); alone, it matches when any such file changed. All given conditions must hold.
 * - `deletes`: a file was deleted (true) / none was (false). A file moved within the workspace,
 *   content unchanged, is not a deletion.
 * - `truncates`: a file that had content was emptied, or cut to a prefix of at most half of it
 *   (`> f`, `truncate -s0 f`, `tee f </dev/null`, a script's `open(f, 'w')`, `head -c 10`); an
 *   edit that drops a small tail is a modification.
 * - `maxFilesChanged`: more than this many files were added, changed, moved or deleted.
 *
 * Lost content is the measure that does not care how a program spelled its change: for each file,
 * the bytes it held before the call that are gone after it (deleted, overwritten anywhere, cut,
 * moved away and not found again, replaced by a link).
 * - `lostBytes`: more than this many bytes were lost over all matching files together.
 * - `lostFraction` (0–1): some matching file lost more than this share of its content; with
 *   `minFileBytes`, only files that held at least that many bytes count.
 * - `filesChanged`: more than this many files that existed before the call were changed, moved,
 *   deleted or retyped (new files are not counted: creating files loses nothing).
 * - `typeChanged`: a path changed its type (a file became a symlink, or the reverse) / none did.
 */
export const effectMatchSchema = z
  .strictObject({
    deletes: z.boolean().optional(),
    truncates: z.boolean().optional(),
    paths: z.array(z.string().min(1).max(500)).min(1).max(500).optional(),
    maxFilesChanged: z.int().nonnegative().max(10_000_000).optional(),
    lostBytes: z.int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    lostFraction: z.number().min(0).max(1).optional(),
    minFileBytes: z.int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    filesChanged: z.int().nonnegative().max(10_000_000).optional(),
    typeChanged: z.boolean().optional(),
  })
  .refine((e) => Object.entries(e).some(([key, value]) => value !== undefined && key !== 'minFileBytes'), {
    message: 'an effect condition needs at least one of deletes, truncates, paths, maxFilesChanged, lostBytes, lostFraction, filesChanged, typeChanged',
  })
  .refine((e) => e.minFileBytes === undefined || e.lostFraction !== undefined, {
    message: 'minFileBytes applies to lostFraction: give lostFraction too',
    path: ['minFileBytes'],
  });

export type EffectMatch = z.output<typeof effectMatchSchema>;
