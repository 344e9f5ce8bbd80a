import { z } from 'zod';

/**
 * A rule's `effect` conditions: they describe what a mutating call (shell, write_file, edit_file)
 * did to the workspace, and are decided on its result, after it ran and before its changes are
 * kept. `paths` narrows the files the other conditions look at (globs relative to the workspace;
 * `!` excludes); alone, it matches when any such file changed. All given conditions must hold.
 * - `deletes`: a file was deleted (true) / none was (false). A file moved within the workspace,
 *   content unchanged, is not a deletion.
 * - `truncates`: a file that had content kept only a prefix of it, possibly nothing (`> f`,
 *   `truncate -s0 f`, `tee f </dev/null`, a script's `open(f, 'w')`).
 * - `maxFilesChanged`: more than this many files were added, changed, moved or deleted.
 */
export const effectMatchSchema = z
  .strictObject({
    deletes: z.boolean().optional(),
    truncates: z.boolean().optional(),
    paths: z.array(z.string().min(1).max(500)).min(1).max(500).optional(),
    maxFilesChanged: z.int().nonnegative().max(10_000_000).optional(),
  })
  .refine((e) => Object.values(e).some((value) => value !== undefined), { message: 'an effect condition needs at least one of deletes, truncates, paths, maxFilesChanged' });

export type EffectMatch = z.output<typeof effectMatchSchema>;

/** How one file changed in a call's effect. */
export const FILE_CHANGES = ['added', 'modified', 'truncated', 'deleted', 'moved'] as const;
export type FileChangeKind = (typeof FILE_CHANGES)[number];

/** One file a call changed. `from` is set for a move; sizes are bytes (null: the file did not exist). */
export const fileChangeSchema = z.strictObject({
  path: z.string().min(1),
  kind: z.enum(FILE_CHANGES),
  from: z.string().min(1).optional(),
  oldBytes: z.int().nonnegative().nullable(),
  newBytes: z.int().nonnegative().nullable(),
});
export type FileChange = z.output<typeof fileChangeSchema>;

/** What a mutating call did to the workspace, relative to the commit it started from. */
export const workspaceEffectSchema = z.strictObject({
  changes: z.array(fileChangeSchema),
  /** Set when the list was cut (an enormous change); the counts still cover every file. */
  truncatedList: z.boolean().default(false),
  counts: z.strictObject({
    added: z.int().nonnegative(),
    modified: z.int().nonnegative(),
    truncated: z.int().nonnegative(),
    deleted: z.int().nonnegative(),
    moved: z.int().nonnegative(),
  }),
});
export type WorkspaceEffect = z.output<typeof workspaceEffectSchema>;
