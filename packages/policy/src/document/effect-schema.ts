import { z } from 'zod';

// What an effect is (the worker computes it, events record it) is the engine's; rules match it here.
export { FILE_CHANGES, fileChangeSchema, workspaceEffectSchema, type FileChange, type FileChangeKind, type WorkspaceEffect } from '@looplane/engine';

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
 */
export const effectMatchSchema = z
  .strictObject({
    deletes: z.boolean().optional(),
    truncates: z.boolean().optional(),
    paths: z.array(z.string().min(1).max(500)).min(1).max(500).optional(),
    maxFilesChanged: z.int().nonnegative().max(10_000_000).optional(),
  })
  .refine((e) => Object.values(e).some((value) => value !== undefined), {
    message: 'an effect condition needs at least one of deletes, truncates, paths, maxFilesChanged',
  });

export type EffectMatch = z.output<typeof effectMatchSchema>;
