import { delegatedChildren, isTerminalRunStatus, recordReturn, returnedDelegations, spawnDelegation, type Db } from '@looplane/db';
import { createEvent, DELEGATE, type NewEvent } from '@looplane/engine';
import type { Wait, WakeContext } from '../runtime/wake-ups';
import { swarmDeps, type SwarmDeps } from './swarm-deps';

/**
 * Starts the children of the delegate calls the session waits on that have none yet (each once:
 * the crossing row is unique per call), up to each edge's fan-out; the rest start when a slot
 * frees up (a returning child wakes every session of the run waiting on children).
 */
async function spawnPending(deps: SwarmDeps, wait: Wait, context: WakeContext): Promise<void> {
  const existing = await delegatedChildren(deps.db, context.sessionId, wait.refs);
  for (const call of context.state.calls) {
    if (!wait.refs.includes(call.id) || call.name !== DELEGATE || existing.some((c) => c.callId === call.id)) continue;
    const outcome = await spawnDelegation(
      deps.db,
      {
        runId: context.runId,
        parentSessionId: context.sessionId,
        callId: call.id,
        to: String(call.args.to),
        goal: String(call.args.goal),
      },
      { pid: process.pid },
    );
    if (outcome.kind === 'spawned') await deps.enqueue({ runId: context.runId, sessionId: outcome.childSessionId, reason: 'start' });
  }
  // A child that finished while its return notice was lost is recorded here (idempotent).
  for (const child of existing) if (isTerminalRunStatus(child.status)) await recordReturn(deps.db, child.id, { pid: process.pid });
}

/** `delegation.returned` for every call the session waits on whose result crossed back. */
async function returnedEvents(db: Db, wait: Wait, context: WakeContext): Promise<NewEvent[] | null> {
  const returned = await returnedDelegations(db, context.sessionId, wait.refs);
  if (returned.length === 0) return null;
  return returned.map((r) => createEvent('delegation.returned', { callId: r.callId, ok: r.ok, result: r.text }, context.clock));
}

/**
 * The `child` wait: the session delegated work over its edges and waits for the results. Starts
 * the children not started yet, then hands back the results that crossed back (filtered by the
 * edge's data rule), or null while none did. Every step is idempotent, so a check without the
 * lease (a job looking whether a waiting session should wake) is harmless.
 */
export async function resolveChildWait(wait: Wait, context: WakeContext): Promise<NewEvent[] | null> {
  const deps = swarmDeps();
  if (!deps) return null;
  await spawnPending(deps, wait, context);
  return returnedEvents(deps.db, wait, context);
}
