import { z } from 'zod';

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

/**
 * A mutating call's result that the policy did not let stand: the work tree was put back to
 * `baseCommit`, and `commit` (stored like any commit) holds what the call made of it.
 */
export const heldEffectSchema = z.strictObject({
  commit: z.string().regex(/^[0-9a-f]{40,64}$/),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  effect: workspaceEffectSchema,
});
export type HeldEffect = z.output<typeof heldEffectSchema>;

/** One line on what an effect changed: "deleted 2 files (a, b); truncated 1 file (c)". */
export function describeEffect(effect: WorkspaceEffect): string {
  const parts: string[] = [];
  for (const kind of ['deleted', 'truncated', 'modified', 'moved', 'added'] as const) {
    const count = effect.counts[kind];
    if (count === 0) continue;
    const paths = effect.changes
      .filter((c) => c.kind === kind)
      .slice(0, 3)
      .map((c) => c.path);
    const more = count > paths.length ? `, +${count - paths.length} more` : '';
    parts.push(`${kind} ${count} file${count === 1 ? '' : 's'} (${paths.join(', ')}${more})`);
  }
  return parts.length > 0 ? parts.join('; ') : 'changed nothing';
}
