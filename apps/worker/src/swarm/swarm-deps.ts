import type { Db } from '@looplane/db';
import type { SessionJob } from '@looplane/queue';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What the swarm needs from the worker: Prisma for its transactions, the queue, a logger. */
export interface SwarmDeps {
  db: Db;
  enqueue: (job: SessionJob) => Promise<void>;
  logger: Logger;
  /** The runtime's queue prefix and connection: where `process` nodes' jobs are routed from and to. */
  routing?: { prefix: string; redis: Redis };
}

let current: SwarmDeps | null = null;

/**
 * The worker's swarm dependencies, set once by `installSwarm` when the runtime starts. The wake-up
 * dispatch (`wake-ups.ts`) is a table of plain functions, so the child resolver reads them here.
 */
export function setSwarmDeps(deps: SwarmDeps): void {
  current = deps;
}

/** The installed dependencies, or null in a process that never installed the swarm. */
export function swarmDeps(): SwarmDeps | null {
  return current;
}
