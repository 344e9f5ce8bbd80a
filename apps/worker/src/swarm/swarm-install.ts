import { recordReturn, sessionsWaitingOnChildren } from '@looplane/db';
import type { ToolRegistry } from '../tools/tool-registry';
import { registerMemoryTools } from './memory-tool-handlers';
import { setSwarmDeps, swarmDeps as currentDeps, type SwarmDeps } from './swarm-deps';

const installed = new WeakSet<ToolRegistry>();

/**
 * When a delegated session's job ends with the session finished, its result crosses back
 * (recorded once, filtered, with evidence) and the parent is woken, together with every other
 * session of the run waiting on children (a fan-out slot of their edge may have freed up).
 */
async function onSessionEnd(deps: SwarmDeps, sessionId: string): Promise<void> {
  try {
    const returned = await recordReturn(deps.db, sessionId, { pid: process.pid });
    if (!returned) return;
    const waiting = new Set([returned.parentSessionId, ...(await sessionsWaitingOnChildren(deps.db, returned.runId))]);
    for (const id of waiting) await deps.enqueue({ runId: returned.runId, sessionId: id, reason: 'resume' });
  } catch (error) {
    // The parent's own wake-up check records the return too; nothing is lost but time.
    deps.logger.warn({ err: error, sessionId }, 'could not hand a delegated result back');
  }
}

/**
 * Wires swarm graphs into a worker: the child-wait resolver's dependencies, the blackboard tools
 * (`memory_get`, `memory_set`, `memory_list`), and the hook that returns a finished child's result.
 */
export function installSwarm(tools: ToolRegistry, deps: SwarmDeps): void {
  setSwarmDeps(deps);
  if (installed.has(tools)) return;
  installed.add(tools);
  registerMemoryTools(tools, deps.db);
  // Only a graph run has delegated sessions: other sessions end without a database round trip.
  tools.onSessionEnd(({ sessionId, graphRun }) => (graphRun ? onSessionEnd(swarmDepsOr(deps), sessionId) : undefined));
}

/** The latest installed deps (a test runtime restarted on the same registry uses its new queue). */
function swarmDepsOr(fallback: SwarmDeps): SwarmDeps {
  return currentDeps() ?? fallback;
}
