import { lstat, readdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceManager } from '@looplane/sandbox';
import type { Logger } from 'pino';

export interface WorkspaceCacheOptions {
  /** LOOPLANE_WORKSPACE_ROOT. */
  root: string;
  workspaces: WorkspaceManager;
  /** LOOPLANE_WORKSPACE_CACHE_MB: past this, least recently used workspaces go. */
  capMb: number;
  /** Whether a job on this worker is using the session's workspace right now (never evicted). */
  inUse: (sessionId: string) => boolean;
  /** Sweeps run at most this often (default 10 s), after a job ends. */
  minIntervalMs?: number;
  logger: Logger;
}

interface Entry {
  sessionId: string;
  usedMs: number;
  bytes: number;
}

/**
 * The workspace root is a cache of the store (any workspace can be restored from it), kept under
 * `capMb`: after jobs end, the least recently used workspaces not in use are removed until the
 * total fits. Sizes are measured once per use, not on every sweep.
 */
export class WorkspaceCache {
  private readonly sizes = new Map<string, { usedMs: number; bytes: number }>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<string[]> | null = null;
  private lastSweep = 0;

  constructor(private readonly options: WorkspaceCacheOptions) {}

  /** A job started using the workspace: it becomes the most recently used (survives worker restarts via mtime). */
  touched(sessionId: string): void {
    this.sizes.delete(sessionId);
    const now = new Date();
    void utimes(join(this.options.root, sessionId), now, now).catch(() => undefined);
  }

  /** A job ended: its size may have changed; a sweep follows soon. */
  released(sessionId: string): void {
    this.sizes.delete(sessionId);
    if (this.timer) return;
    const wait = Math.max(0, this.lastSweep + (this.options.minIntervalMs ?? 10_000) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sweep().catch((error: unknown) => this.options.logger.warn({ err: error }, 'workspace cache sweep failed'));
    }, wait);
    this.timer.unref();
  }

  /** Evicts until the cache fits; returns the sessions whose local copies it removed. Sweeps never overlap. */
  sweep(): Promise<string[]> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
      this.lastSweep = Date.now();
    });
    return this.running;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async sweepOnce(): Promise<string[]> {
    const entries = await this.entries();
    const cap = this.options.capMb * 1024 * 1024;
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    const evicted: string[] = [];
    for (const entry of entries.sort((a, b) => a.usedMs - b.usedMs)) {
      if (total <= cap) break;
      if (this.options.inUse(entry.sessionId)) continue;
      await this.options.workspaces.withLock(entry.sessionId, async () => {
        // Taken up by a job while this sweep waited for the lock: keep it.
        if (this.options.inUse(entry.sessionId)) return;
        await this.options.workspaces.remove(entry.sessionId);
        evicted.push(entry.sessionId);
        total -= entry.bytes;
        this.sizes.delete(entry.sessionId);
      });
    }
    if (evicted.length)
      this.options.logger.info(
        { evicted: evicted.length, capMb: this.options.capMb, remainingMb: Math.round(total / 1048576) },
        'local workspace cache trimmed (the store keeps every file)',
      );
    return evicted;
  }

  /** Every workspace under the root with its last use and size (dot entries are driver and uid state). */
  private async entries(): Promise<Entry[]> {
    const names = await readdir(this.options.root, { withFileTypes: true }).catch(() => []);
    const entries: Entry[] = [];
    for (const dirent of names) {
      if (!dirent.isDirectory() || dirent.name.startsWith('.')) continue;
      const sessionId = dirent.name;
      let known = this.sizes.get(sessionId);
      if (!known) {
        const dir = join(this.options.root, sessionId);
        const info = await stat(dir).catch(() => null);
        if (!info) continue;
        known = { usedMs: info.mtimeMs, bytes: await treeBytes(dir) };
        this.sizes.set(sessionId, known);
      }
      entries.push({ sessionId, ...known });
    }
    return entries;
  }
}

/** Allocated bytes of a tree (st_blocks), without following links. */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length) {
    const current = pending.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true }).catch(() => [])) {
      const path = join(current, entry.name);
      const info = await lstat(path).catch(() => null);
      if (!info) continue;
      total += info.blocks * 512;
      if (entry.isDirectory()) pending.push(path);
    }
  }
  return total;
}
