import { z } from 'zod';

/**
 * How one file changed in a call's effect. `type_changed`: the path is no longer the same kind of
 * entry (a file became a symlink, a symlink a file): whatever the old entry held is gone.
 */
export const FILE_CHANGES = ['added', 'modified', 'truncated', 'deleted', 'moved', 'type_changed'] as const;
export type FileChangeKind = (typeof FILE_CHANGES)[number];

/**
 * One file a call changed. `from` is set for a move (its content may have been edited on the way);
 * sizes are bytes (null: the file did not exist). `lostBytes` is the measure the effect rules hold
 * on: how much of the content the path held before the call is gone after it, wherever in the file
 * (deleted, overwritten, cut, moved away and not found again). Effects recorded before it existed
 * lack it; {@link lostBytesOf} estimates it for them.
 */
export const fileChangeSchema = z.strictObject({
  path: z.string().min(1),
  kind: z.enum(FILE_CHANGES),
  from: z.string().min(1).optional(),
  oldBytes: z.int().nonnegative().nullable(),
  newBytes: z.int().nonnegative().nullable(),
  lostBytes: z.int().nonnegative().optional(),
});
export type FileChange = z.output<typeof fileChangeSchema>;

/** The content a change lost: recorded, or (for an effect recorded without it) what its kind implies. */
export function lostBytesOf(change: FileChange): number {
  if (change.lostBytes !== undefined) return change.lostBytes;
  const before = change.oldBytes ?? 0;
  if (change.kind === 'deleted' || change.kind === 'type_changed') return before;
  if (change.kind === 'truncated') return Math.max(0, before - (change.newBytes ?? 0));
  return 0;
}

/** An entry the workspace cannot keep (a FIFO, a socket, a device, a name git reserves): removed after the call, and said so. */
const refusedEntrySchema = z.strictObject({
  path: z.string().min(1),
  reason: z.string().min(1),
});
export type RefusedEntry = z.output<typeof refusedEntrySchema>;

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
    type_changed: z.int().nonnegative().default(0),
  }),
  /** Content lost over every file (not only the listed ones); absent in effects recorded before it existed. */
  lostBytes: z.int().nonnegative().optional(),
  /** Entries removed after the call because a workspace cannot keep them. */
  refused: z.array(refusedEntrySchema).max(1000).optional(),
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
  for (const kind of ['deleted', 'truncated', 'type_changed', 'modified', 'moved', 'added'] as const) {
    const count = effect.counts[kind] ?? 0;
    if (count === 0) continue;
    const paths = effect.changes
      .filter((c) => c.kind === kind)
      .slice(0, 3)
      .map((c) => c.path);
    const more = count > paths.length ? `, +${count - paths.length} more` : '';
    const verb = kind === 'type_changed' ? 'changed the type of' : kind;
    parts.push(`${verb} ${count} file${count === 1 ? '' : 's'} (${paths.join(', ')}${more})`);
  }
  if (effect.lostBytes) parts.push(`lost ${effect.lostBytes} bytes of earlier content`);
  if (effect.refused?.length) parts.push(`removed ${effect.refused.length} entr${effect.refused.length === 1 ? 'y' : 'ies'} a workspace cannot keep`);
  return parts.length > 0 ? parts.join('; ') : 'changed nothing';
}
