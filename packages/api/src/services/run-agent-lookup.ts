import type { Db, Prisma } from '@looplane/db';
import { BatchQueue } from '@looplane/shared';

/** An agent template with its endpoint, as a create reads it. */
export type AgentForRun = Prisma.AgentTemplateGetPayload<{ include: { endpoint: true } }>;

interface Pending {
  teamId: string;
  agentId: string;
  resolve: (agent: AgentForRun | null) => void;
  reject: (error: unknown) => void;
}

/**
 * The agent lookups of concurrent creates, read together: lookups that arrive while a read is in
 * flight go into the next one (`id IN (…)`), so a burst of creates costs one agent read instead
 * of one each. Each lookup is answered by a read that started after it was asked, so nothing is
 * served stale; archived agents and other teams' agents are not found, as with a read of one's own.
 */
export class AgentLookup {
  private readonly batches: BatchQueue<Pending>;

  constructor(
    private readonly db: Db,
    options: { maxBatch?: number; parallel?: number } = {},
  ) {
    this.batches = new BatchQueue((batch) => this.read(batch), { maxBatch: options.maxBatch ?? 256, parallel: options.parallel ?? 2 });
  }

  /** The team's non-archived agent with this id, or null. */
  find(teamId: string, agentId: string): Promise<AgentForRun | null> {
    return new Promise((resolve, reject) => this.batches.push({ teamId, agentId, resolve, reject }));
  }

  private async read(batch: Pending[]): Promise<void> {
    const ids = [...new Set(batch.map((p) => p.agentId))];
    const agents = await this.db.agentTemplate.findMany({ where: { id: { in: ids }, archivedAt: null }, include: { endpoint: true } });
    const byId = new Map(agents.map((agent) => [agent.id, agent]));
    for (const pending of batch) {
      const agent = byId.get(pending.agentId);
      pending.resolve(agent && agent.teamId === pending.teamId ? agent : null);
    }
  }
}

const lookups = new WeakMap<Db, AgentLookup>();

/** The process's agent lookup for a database client. */
export function agentLookup(db: Db): AgentLookup {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = new AgentLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}
