import { appendAudit, TERMINAL_SESSION_STATUSES, type Prisma, type Tx } from '@looplane/db';
import { forkBlocker, foldUntil, parseRunConfig, type CallStatus, type ReplayMarker, type ReplayMode, type RunConfig, type RunState } from '@looplane/engine';
import { modelLimitsOf } from '@looplane/models';
import { AppError } from '@looplane/shared';
import type { ForkSessionInput } from '../routers/sessions.schema';
import type { PrincipalActor } from '../trpc';
import { newId } from '@looplane/db';
import { admitRunStart } from './run-start-limits';
import { runLimitsOf, type RunDeps } from './runs.service';
import { commitAt, findTeamSession, sessionLog, type SessionRow } from './sessions-ancestry';

/**
 * Why a fork may not start at this state besides the engine's own reasons: a call waiting for a
 * human. The approval belongs to the parent's branch and is never inherited; fork before the call
 * was requested (the branch then asks for its own approval) or after it was decided.
 */
export function approvalBlocker(state: RunState): string | null {
  const waiting = state.calls.find((c) => c.status === 'awaiting_approval');
  return waiting ? `tool call ${waiting.id} (${waiting.name}) waits for an approval at this event, and a pending approval is not inherited` : null;
}

/**
 * Why a replay may not start here: in the middle of a turn (some of its tool calls done, some
 * not). A replay compares whole turns with the recording, so it starts where one begins or ends.
 */
const UNRESOLVED = new Set<CallStatus>(['requested', 'allowed', 'approved', 'started', 'awaiting_approval', 'delegated']);

function replayBlocker(state: RunState): string | null {
  const open = state.calls.filter((c) => UNRESOLVED.has(c.status));
  return open.length > 0 ? `the turn's tool call ${open[0]!.id} (${open[0]!.name}) has no result yet; replay from the start or the end of a turn` : null;
}

/**
 * A run with a cancel request cancels every branch that runs. New work on it (a fork, a resume)
 * withdraws a request that is done (every branch finished); while branches are still being
 * cancelled it is refused.
 */
export async function clearSettledCancel(tx: Tx, runId: string): Promise<void> {
  const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { cancelRequestedAt: true } });
  if (!run.cancelRequestedAt) return;
  const live = await tx.session.count({ where: { runId, status: { notIn: [...TERMINAL_SESSION_STATUSES] } } });
  if (live > 0) throw new AppError('PRECONDITION_FAILED', 'The run is being cancelled; wait until its branches have stopped');
  await tx.run.updateMany({ where: { id: runId, cancelRequestedAt: run.cancelRequestedAt }, data: { cancelRequestedAt: null, cancelledById: null } });
}

/** The branch's own config when the fork changes the model or the prompt (endpoint checked to be the team's). */
async function overriddenConfig(
  tx: Tx,
  teamId: string,
  base: RunConfig,
  overrides: NonNullable<ForkSessionInput['agentOverrides']>,
): Promise<RunConfig | null> {
  if (overrides.endpointId === undefined && overrides.systemPrompt === undefined) return null;
  let model = base.model;
  if (overrides.endpointId !== undefined) {
    const endpoint = await tx.modelEndpoint.findFirst({ where: { id: overrides.endpointId, teamId } });
    if (!endpoint) throw new AppError('NOT_FOUND', 'No such model endpoint in this team');
    if (endpoint.deletedAt) throw new AppError('PRECONDITION_FAILED', `The model endpoint ${endpoint.name} was deleted`);
    model = modelLimitsOf(endpoint);
  }
  return parseRunConfig({ ...base, model, ...(overrides.systemPrompt !== undefined ? { systemPrompt: overrides.systemPrompt } : {}) });
}

/**
 * Forks a session at one of its events: a new branch whose log is the parent's up to `atEvent`
 * (read through the ancestry, nothing copied: one Session row, plus an inbox row for the
 * message) and whose workspace starts at the commit recorded at that event. The event must be
 * committed and forkable: no model call or tool call in flight, no approval pending there. The
 * new branch is owned by the session that wrote the event (forking a branch at an inherited
 * event branches off the ancestor), so the tree shows where logs really diverge. The worker
 * appends `session.forked` first, then the message, and drives it like any session. Budgets:
 * the branch's spend is its own (`Session.costMicros`) and counts against the run's ledger.
 */
export async function forkSession(
  deps: RunDeps,
  actor: PrincipalActor,
  teamId: string,
  input: ForkSessionInput,
  ip: string | null,
  replay?: { mode: ReplayMode },
): Promise<{ sessionId: string; runId: string; parentId: string; atEvent: number }> {
  const sessionId = newId();
  const created = await deps.db.$transaction(async (tx) => {
    const asked = await findTeamSession(tx, teamId, input.sessionId);
    if (input.atEvent > asked.lastSeq) {
      throw new AppError('BAD_REQUEST', `Session ${asked.id} has ${asked.lastSeq} committed event(s); atEvent must be between 1 and ${asked.lastSeq}`);
    }
    let owner: SessionRow = asked;
    while (owner.parentId && owner.forkSeq !== null && input.atEvent <= owner.forkSeq) owner = await findTeamSession(tx, teamId, owner.parentId);
    const events = await sessionLog(tx, owner.id);
    const state = foldUntil(events, input.atEvent);
    const blocker = forkBlocker(state) ?? approvalBlocker(state) ?? (replay ? replayBlocker(state) : null);
    if (blocker) throw new AppError('PRECONDITION_FAILED', `Cannot ${replay ? 'replay from' : 'fork at'} event ${input.atEvent}: ${blocker}`);
    const config = input.agentOverrides && state.config ? await overriddenConfig(tx, teamId, state.config, input.agentOverrides) : null;
    await clearSettledCancel(tx, owner.runId);
    const commit = commitAt(events, input.atEvent);
    const siblings = await tx.session.count({ where: { runId: owner.runId } });
    // A replay's recording is the log of the session asked for (its parent may be an ancestor that holds the event).
    const marker: ReplayMarker | null = replay
      ? {
          sourceSessionId: asked.id,
          atEvent: input.atEvent,
          mode: replay.mode,
          ...(input.agentOverrides?.endpointId !== undefined ? { endpointId: input.agentOverrides.endpointId } : {}),
          ...(input.agentOverrides?.systemPrompt !== undefined ? { systemPrompt: true } : {}),
        }
      : null;
    await tx.session.create({
      data: {
        id: sessionId,
        runId: owner.runId,
        parentId: owner.id,
        forkSeq: input.atEvent,
        // Its own events are numbered after the inherited ones; the append fence starts here.
        lastSeq: input.atEvent,
        status: 'idle',
        agentId: owner.agentId,
        endpointId: input.agentOverrides?.endpointId ?? owner.endpointId,
        // `{}`: the branch keeps the inherited config; a full config: `session.forked` carries it.
        config: (config ?? {}) as unknown as Prisma.InputJsonValue,
        title: marker
          ? `replay ${siblings} of ${asked.title || asked.id} (from #${input.atEvent}, ${marker.mode})`
          : `branch ${siblings} (from #${input.atEvent})`,
        ...(marker ? { replay: marker } : {}),
        workspaceCommit: commit,
        createdById: actor.userId,
      },
    });
    if (input.message) await tx.inboxMessage.create({ data: { runId: owner.runId, sessionId, text: input.message, createdById: actor.userId } });
    // Where the audit append takes the team's chain lock anyway (taking it earlier could deadlock
    // with a writer that holds the run row): a fork counts as a start, never as a queued run.
    await admitRunStart(tx, { teamId, newRun: false, limits: runLimitsOf(deps) });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: marker ? 'session.replayed' : 'session.forked',
      targetType: 'session',
      targetId: sessionId,
      data: {
        ...(marker ? { replay: { mode: marker.mode, sourceSessionId: marker.sourceSessionId } } : {}),
        runId: owner.runId,
        parentId: owner.id,
        requestedSessionId: asked.id,
        atEvent: input.atEvent,
        workspaceCommit: commit,
        message: input.message ? { chars: input.message.length } : null,
        overrides: { endpointId: input.agentOverrides?.endpointId ?? null, systemPrompt: input.agentOverrides?.systemPrompt !== undefined },
      },
    });
    return { runId: owner.runId, parentId: owner.id };
  });
  await deps.dispatch.enqueueSession({ runId: created.runId, sessionId, reason: 'start' });
  return { sessionId, runId: created.runId, parentId: created.parentId, atEvent: input.atEvent };
}
