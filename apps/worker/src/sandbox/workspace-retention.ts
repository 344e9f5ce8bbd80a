import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sessionsPastRetention, type Queryable } from '@looplane/db';
import type { Clock } from '@looplane/engine';
import type { WorkspaceManager } from '@looplane/sandbox';
import type { WorkspaceStore } from '@looplane/workspaces';
import type { Logger } from 'pino';

const DAY_MS = 24 * 3600_000;
/** Runs removed from the store per sweep (the next sweep takes the rest). */
const BATCH = 200;

export interface WorkspaceRetentionOptions {
  pool: Queryable;
  /** The store of record: its packs of expired runs are removed, with the reason recorded. */
  store: WorkspaceStore;
  workspaces: WorkspaceManager;
  /** The workspace root the manager works in (LOOPLANE_WORKSPACE_ROOT). */
  root: string;
  /** LOOPLANE_WORKSPACE_RETENTION_DAYS: a run's files go this long after it ended. */
  retentionDays: number;
  /** How often to sweep (default hourly); the first sweep runs one interval after start. */
  intervalMs?: number;
  clock?: Clock;
  logger: Logger;
}

/**
 * Removes the files of runs that ended (succeeded, failed or cancelled) more than
 * `retentionDays` ago: their packs in the store, and this host's local copies (freeing their
 * sandbox uids). What must stay true:
 * - The files of a run that is still alive (queued, running, waiting, paused) are never touched,
 *   whatever their age; neither is a local directory whose session the database does not know.
 * - A removal is recorded in Postgres (`WorkspaceRemoval`) with its reason, so a later fork or
 *   resume of the run fails naming the removal on whichever host it runs, instead of starting
 *   from an empty tree. Forking or resuming a run is possible for `retentionDays` after it ended.
 * - Every worker sweeps; removals are idempotent, so sweeps on several hosts never conflict.
 */
export class WorkspaceRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<{ runs: string[]; local: string[] }> | null = null;
  private readonly clock: Clock;

  constructor(private readonly options: WorkspaceRetentionOptions) {
    this.clock = options.clock ?? { now: () => Date.now() };
  }

  /** Sweeps every `intervalMs` until {@link stop}. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.sweep().catch((error: unknown) => this.options.logger.warn({ err: error }, 'workspace retention sweep failed'));
    }, this.options.intervalMs ?? 3600_000);
    this.timer.unref();
  }

  /** Stops sweeping and waits for a sweep in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One sweep: the runs whose stored files it removed, and the sessions whose local copies went. Sweeps never overlap. */
  sweep(): Promise<{ runs: string[]; local: string[] }> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepOnce(): Promise<{ runs: string[]; local: string[] }> {
    const cutoff = new Date(this.clock.now() - this.options.retentionDays * DAY_MS);
    const reason = `kept ${this.options.retentionDays} days after the run ended (LOOPLANE_WORKSPACE_RETENTION_DAYS)`;
    const runs = await this.options.store.expiredRuns(cutoff, BATCH);
    for (const runId of runs) await this.options.store.removeRun(runId, reason);
    const local = await this.sweepLocal(cutoff);
    if (runs.length || local.length)
      this.options.logger.info(
        { runs: runs.length, local: local.length, retentionDays: this.options.retentionDays },
        'files of runs that ended long ago removed',
      );
    return { runs, local };
  }

  private async sweepLocal(cutoff: Date): Promise<string[]> {
    const candidates = await this.workspaceDirs();
    if (candidates.length === 0) return [];
    const expired = await sessionsPastRetention(this.options.pool, candidates, cutoff);
    const removed: string[] = [];
    for (const id of expired) {
      // The session's lock: no tool call of it is half-way through its workspace meanwhile.
      await this.options.workspaces.withLock(id, () => this.options.workspaces.remove(id));
      removed.push(id);
    }
    return removed;
  }

  /** Session ids with a workspace under the root (dot entries are the drivers' and uids' state). */
  private async workspaceDirs(): Promise<string[]> {
    const entries = await readdir(this.options.root, { withFileTypes: true }).catch(() => []);
    const ids: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (
        await stat(join(this.options.root, entry.name, 'meta.json')).then(
          () => true,
          () => false,
        )
      )
        ids.push(entry.name);
    }
    return ids;
  }
}
