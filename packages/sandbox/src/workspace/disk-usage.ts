import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface DiskUsage {
  /** Allocated bytes (st_blocks × 512): what the files really take, sparse holes excluded. */
  bytes: number;
  /** Files, directories and links, the root excluded. */
  entries: number;
  /** The walk stopped early because a limit was already passed. */
  partial: boolean;
}

/**
 * Measures a directory tree without following symlinks. It stops as soon as either limit is
 * passed, so measuring a workspace someone filled with a million files stays cheap.
 */
export async function diskUsage(root: string, stopAt?: { bytes: number; entries: number }): Promise<DiskUsage> {
  const usage: DiskUsage = { bytes: 0, entries: 0, partial: false };
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(dir, name);
      const stat = await lstat(path).catch(() => null);
      if (!stat) continue;
      usage.entries += 1;
      usage.bytes += stat.blocks * 512;
      if (stat.isDirectory()) pending.push(path);
      if (stopAt && (usage.bytes > stopAt.bytes || usage.entries > stopAt.entries)) {
        usage.partial = true;
        return usage;
      }
    }
  }
  return usage;
}

/**
 * Whether the tree is at its byte limit or over its entry limit. Reaching the byte limit counts:
 * RLIMIT_FSIZE equals it, so a write that would have passed it was refused, and the work is incomplete.
 */
export async function overDiskLimit(root: string, limits: { workspaceBytes: number; workspaceFiles: number }): Promise<boolean> {
  const usage = await diskUsage(root, { bytes: limits.workspaceBytes - 1, entries: limits.workspaceFiles });
  return usage.bytes >= limits.workspaceBytes || usage.entries > limits.workspaceFiles;
}

/**
 * The kill reason to report once the process is gone: a workspace left over its limit wins over
 * any other reason (a timeout included), because the caller must then reset the workspace.
 */
export async function finalKillReason<R extends string>(
  killedBy: R | null,
  root: string,
  limits: { workspaceBytes: number; workspaceFiles: number },
): Promise<R | 'disk-limit' | null> {
  if (killedBy === 'disk-limit') return killedBy;
  return (await overDiskLimit(root, limits)) ? 'disk-limit' : killedBy;
}
