import { parseSwarm, type SessionContext, type SwarmSnapshot } from '@looplane/db';
import { createSessionQueue, enqueueSession, type SessionJob } from '@looplane/queue';
import type { Queue } from 'bullmq';
import { swarmDeps } from '../swarm-deps';
import { isolatedPrefix, mainPrefixOf } from './node-home';
import { ensureNodeProcess } from './node-processes';

/** Graph snapshots never change once a run exists: cached by run. */
const snapshots = new Map<string, SwarmSnapshot | null>();
const MAX_CACHED = 1000;
const queues = new Map<string, Queue<SessionJob>>();

async function snapshotOf(runId: string): Promise<SwarmSnapshot | null> {
  if (snapshots.has(runId)) return snapshots.get(runId)!;
  const deps = swarmDeps();
  const run = await deps!.db.run.findUnique({ where: { id: runId }, select: { swarm: true } });
  const swarm = parseSwarm(run?.swarm);
  if (snapshots.size >= MAX_CACHED) snapshots.delete(snapshots.keys().next().value!);
  snapshots.set(runId, swarm);
  return swarm;
}

/**
 * Where a graph run's session is worked on: a `process` node's sessions on its dedicated worker
 * process (its own queue prefix), every other session on the main workers. A job that arrives
 * elsewhere is forwarded to its home (starting the node's process when this is a main worker)
 * and true is returned: the caller does nothing more with it.
 */
export async function routeSwarmJob(context: SessionContext, job: SessionJob): Promise<boolean> {
  const deps = swarmDeps();
  if (!deps?.routing) return false;
  const session = await deps.db.session.findUnique({ where: { id: context.sessionId }, select: { nodeKey: true } });
  const swarm = await snapshotOf(context.runId);
  const node = swarm?.nodes.find((n) => n.key === session?.nodeKey);
  const main = mainPrefixOf(deps.routing.prefix);
  const home = swarm && node?.isolation === 'process' ? isolatedPrefix(main, swarm.graphId, node.key) : main;
  if (home === deps.routing.prefix) return false;
  if (home !== main && deps.routing.prefix === main) ensureNodeProcess(home, deps.logger);
  let queue = queues.get(home);
  if (!queue) {
    queue = createSessionQueue(deps.routing.redis, { prefix: home });
    queues.set(home, queue);
  }
  await enqueueSession(queue, job);
  return true;
}
