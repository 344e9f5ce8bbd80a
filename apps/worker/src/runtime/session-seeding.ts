import type { SessionContext } from '@looplane/db';
import { createEvent, parseStoredWorkspace, type Clock, type NewEvent, type RepositoryContext, type RunState } from '@looplane/engine';
import type { Logger } from 'pino';
import { SeedFailure } from '../repositories/fetch-repository';
import type { WorkspaceSeeder } from '../repositories/workspace-seeder';

export type SeedResult = { events: NewEvent[]; repository?: RepositoryContext } | { failed: string };

/**
 * A new session whose run names files (`Run.workspace`, the root session only) gets them before its
 * first model call: the seeder fetches or unpacks them into the workspace and stores them, and
 * `workspace.seeded` records the commit (the session's files from then on, so a fork anywhere has
 * them). A session that already recorded its seed (a job cut short after it) is not seeded again.
 * Nothing here is charged: no model has been called. Any failure ends the run with its cause.
 */
export async function seedSession(context: SessionContext, state: RunState, seeder: WorkspaceSeeder | null, clock: Clock, log: Logger): Promise<SeedResult> {
  if (state.seed) return { events: [] };
  const stored = parseStoredWorkspace(context.workspace);
  if (!stored.ok) return { failed: `workspace: ${stored.reason}` };
  if (!stored.value) return { events: [] };
  if (!seeder) return { failed: 'workspace: this worker cannot seed workspaces (it runs no sandbox)' };
  const started = Date.now();
  try {
    const outcome = await seeder.seed({ runId: context.runId, sessionId: context.sessionId, teamId: context.teamId, workspace: stored.value });
    log.info({ source: outcome.payload.source, files: outcome.payload.files, bytes: outcome.payload.bytes, ms: Date.now() - started }, 'workspace seeded');
    return { events: [createEvent('workspace.seeded', outcome.payload, clock)], ...(outcome.repository ? { repository: outcome.repository } : {}) };
  } catch (error) {
    if (error instanceof SeedFailure) {
      log.warn({ reason: error.message }, 'workspace could not be seeded; the run fails');
      return { failed: `workspace: ${error.message}` };
    }
    // Anything else (a git or store failure) would fail every retry the same way: the run ends
    // saying so rather than being retried forever without a word.
    log.error({ err: error }, 'seeding the workspace failed; the run fails');
    return {
      failed: `workspace: the files could not be prepared on this worker (${(error as Error).message.split('\n')[0]?.slice(0, 300) ?? 'unknown error'})`,
    };
  }
}
