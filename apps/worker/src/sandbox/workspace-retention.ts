import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '@looplane/db';
import type { Clock } from '@looplane/engine';
import type { WorkspaceManager } from '@looplane/sandbox';
import type { Logger } from 'pino';

const DAY_MS = 24 * 3600_000;
/** Where removals are remembered: `<root>/.removed/<sessionId>` holds when and why. */
const TOMBSTONES = '.removed';
const TERMINAL = ['succeeded', 'failed', 'cancelled'];
const ENDED_SQL = `
SELECT s.id, r."finishedAt" FROM "Session" s JOIN "Run" r ON r.id = s."runId"
WHERE s.id = ANY($1::text[]) AND r.status::text = ANY($2::text[]) AND r."finishedAt" IS NOT NULL AND r."finishedAt" < $3`;

export interface WorkspaceRetentionOptions {
  pool: Queryable;
  workspaces: WorkspaceManager;
  /** The workspace root the manager works in (LOOPLANE_WORKSPACE_ROOT). */
  root: string;
  /** LOOPLANE_WORKSPACE_RETENTION_DAYS: a workspace goes this long after its run ended. */
  retentionDays: number;
  /** How often to sweep (default hourly); the first sweep runs one interval after start. */
  intervalMs?: number;
  clock?: Clock;
  logger: Logger;
}

/**
 * Reclaims disk and sandbox uids: removes the workspaces of sessions whose run ended (succeeded,
 * failed or cancelled) more than `retentionDays` ago, and frees their uids
 * (`WorkspaceManager.remove`). What must stay true:
 * - A workspace of a run that is still alive (queued, running, waiting, paused) is never touched,
 *   whatever its age; neither is a directory whose session the database does not know (another
 *   deployment's, or one being created right now).
 * - A removal is remembered in a tombstone, so a later tool call of that session (a resumed
 *   branch) fails naming the removal instead of starting from an empty tree; a fork from a removed
 *   workspace fails with "no workspace on this host holds commit …" (`fork-workspace.ts`).
 *   Forking or resuming a run is therefore possible for `retentionDays` after it ended.
 */
export class WorkspaceRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<string[]> | null = null;
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

  /** One sweep; returns the sessions whose workspaces it removed. Sweeps never overlap. */
  sweep(): Promise<string[]> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepOnce(): Promise<string[]> {
    const candidates = await this.workspaceDirs();
    if (candidates.length === 0) return [];
    const cutoff = new Date(this.clock.now() - this.options.retentionDays * DAY_MS);
    const found = await this.options.pool.query({ name: 'looplane_workspace_retention_v1', text: ENDED_SQL, values: [candidates, TERMINAL, cutoff] });
    const removed: string[] = [];
    for (const row of found.rows as { id: string; finishedAt: Date }[]) {
      // The session's lock: no tool call of it is half-way through its workspace meanwhile.
      await this.options.workspaces.withLock(row.id, async () => {
        await this.tombstone(row.id, row.finishedAt);
        await this.options.workspaces.remove(row.id);
      });
      removed.push(row.id);
    }
    if (removed.length) this.options.logger.info({ removed: removed.length, retentionDays: this.options.retentionDays }, 'workspaces of runs that ended long ago removed');
    return removed;
  }

  /** Session ids with a workspace under the root (dot entries are the drivers' and uids' state). */
  private async workspaceDirs(): Promise<string[]> {
    const entries = await readdir(this.options.root, { withFileTypes: true }).catch(() => []);
    const ids: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (await stat(join(this.options.root, entry.name, 'meta.json')).then(() => true, () => false)) ids.push(entry.name);
    }
    return ids;
  }

  private async tombstone(sessionId: string, finishedAt: Date): Promise<void> {
    const dir = join(this.options.root, TOMBSTONES);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const note = { removedAt: new Date(this.clock.now()).toISOString(), runFinishedAt: finishedAt.toISOString(), retentionDays: this.options.retentionDays };
    await writeFile(join(dir, sessionId), JSON.stringify(note), { mode: 0o600 });
  }
}

/**
 * Why a session's workspace cannot be used because the retention sweep removed it, or null.
 * The worker's sandbox asks before it would create a workspace for a session.
 */
export async function removedWorkspace(root: string, sessionId: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) return null;
  const text = await readFile(join(root, TOMBSTONES, sessionId), 'utf8').catch(() => null);
  if (text === null) return null;
  const note = JSON.parse(text) as { removedAt?: string; retentionDays?: number };
  return `the workspace of session ${sessionId} was removed on ${note.removedAt ?? 'an earlier date'} (kept ${note.retentionDays ?? '?'} days after its run ended, LOOPLANE_WORKSPACE_RETENTION_DAYS); start a new run instead`;
}
