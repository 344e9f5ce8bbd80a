import { expect, type APIRequestContext } from '@playwright/test';
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { stack } from './stack';
import { trpcQuery } from './trpc-api';

/**
 * The worker's local copy of a session's workspace (`<LOOPLANE_WORKSPACE_ROOT>/<sessionId>`, by
 * default under LOOPLANE_HOME). `looplane start` gives the web and the worker one data directory,
 * so deleting this copy is how a spec shows the dashboard reads session files from the workspace
 * store, as a web on another host (another LOOPLANE_HOME) would have to.
 */
function workerWorkspaceDir(sessionId: string): string {
  return join(process.env.LOOPLANE_WORKSPACE_ROOT ?? join(stack.home, 'workspaces'), sessionId);
}

/** Deletes the worker's local copy of a session's workspace; it must exist (else the path is wrong). */
export async function dropWorkerWorkspace(sessionId: string): Promise<void> {
  const dir = workerWorkspaceDir(sessionId);
  await expect(access(dir), `the worker's workspace of ${sessionId} at ${dir}`).resolves.toBeUndefined();
  await rm(dir, { recursive: true, force: true });
}

/**
 * The separate web (a LOOPLANE_HOME no worker uses) showed the run's files from the store: they
 * came through its own cache (`<home>/web-cache/workspaces/<runId>.git`), and it never had, read
 * or made a worker's `workspaces` directory.
 */
export async function expectSeparateWebReadOnlyTheStore(runId: string): Promise<void> {
  const home = stack.separateWebHome;
  await expect(access(join(home, 'web-cache', 'workspaces', `${runId}.git`)), `the separate web's cache of run ${runId}`).resolves.toBeUndefined();
  await expect(access(join(home, 'workspaces')), `${home}/workspaces`).rejects.toThrow(/ENOENT/);
}

export interface SessionEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  forkBlocker: string | null;
}

/** A branch's events through its ancestry, numbered by `seq` (what `sessions.fork` and `sessions.files` take). */
export async function sessionEvents(request: APIRequestContext, teamId: string, sessionId: string): Promise<{ lastSeq: number; events: SessionEvent[] }> {
  return trpcQuery(request, 'sessions.events', stack.bootstrapToken, { teamId, sessionId });
}

/** The seq of the first `tool.requested` the predicate picks, and of the `tool.finished` with a commit after it. */
export function toolCall(
  events: readonly SessionEvent[],
  pick: (name: string, args: Record<string, unknown>) => boolean,
): { requested: number; finished: number } {
  const requested = events.find((e) => e.type === 'tool.requested' && pick(String(e.payload.name), (e.payload.args ?? {}) as Record<string, unknown>));
  if (!requested) throw new Error(`no such tool call among ${events.map((e) => e.type).join(', ')}`);
  const finished = events.find((e) => e.type === 'tool.finished' && e.seq > requested.seq && e.payload.callId === requested.payload.callId);
  if (!finished) throw new Error(`tool call #${requested.seq} has not finished`);
  return { requested: requested.seq, finished: finished.seq };
}
