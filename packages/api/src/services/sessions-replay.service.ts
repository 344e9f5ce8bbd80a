import type { EngineEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { ReplaySessionInput } from '../routers/sessions.schema';
import type { PrincipalActor } from '../trpc';
import type { RunDeps } from './runs.service';
import { findTeamSession, sessionLog } from './sessions-ancestry';
import { forkSession } from './sessions-fork.service';

/**
 * Where a session's own work starts: the event just before its first own model call (after
 * `run.started` or `session.forked` and the messages it began with), or its last event when it
 * never called the model. A replay from there gives the new model exactly the recorded input.
 */
function sessionStart(events: readonly EngineEvent[], forkSeq: number | null): number {
  const ownFrom = (forkSeq ?? 0) + 1;
  const first = events.find((e) => e.seq >= ownFrom && (e.type === 'budget.reserved' || e.type === 'budget.exceeded' || e.type === 'model.requested'));
  return first ? first.seq - 1 : (events.at(-1)?.seq ?? 0);
}

/**
 * `sessions.replay`: a fork of the session (same run, same tree, its spend its own and on the
 * run's ledger) marked as a replay of it from `atEvent`. The worker drives it on the new endpoint
 * or prompt and serves the recorded tool results while the new model asks for the same calls;
 * at the first divergence it stops with a report or goes on live (`mode`).
 */
export async function replaySession(
  deps: RunDeps,
  actor: PrincipalActor,
  teamId: string,
  input: ReplaySessionInput,
  ip: string | null,
): Promise<{ sessionId: string; runId: string; parentId: string; atEvent: number; mode: ReplaySessionInput['mode'] }> {
  let atEvent = input.atEvent;
  if (atEvent === undefined) {
    const session = await findTeamSession(deps.db, teamId, input.sessionId);
    atEvent = sessionStart(await sessionLog(deps.db, session.id), session.forkSeq);
    if (atEvent < 1) throw new AppError('PRECONDITION_FAILED', `Session ${session.id} has not started: there is nothing to replay`);
  }
  const overrides = {
    ...(input.endpointId !== undefined ? { endpointId: input.endpointId } : {}),
    ...(input.systemPrompt !== undefined ? { systemPrompt: input.systemPrompt } : {}),
  };
  const forked = await forkSession(
    deps,
    actor,
    teamId,
    { sessionId: input.sessionId, atEvent, ...(Object.keys(overrides).length > 0 ? { agentOverrides: overrides } : {}) },
    ip,
    { mode: input.mode },
  );
  return { ...forked, mode: input.mode };
}
