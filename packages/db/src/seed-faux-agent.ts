import type { Prisma } from './generated/prisma/client';
import type { Tx } from './audit/audit.repository';
import { appendAudit } from './audit/audit.repository';

const SYSTEM = { type: 'system', name: 'seed' } as const;

/** A scripted (faux) endpoint as the demo seeds define it. */
export interface FauxEndpointSeed {
  name: string;
  kind: 'faux';
  model: string;
  contextWindow: number;
  maxOutputTokens: number;
  config: Record<string, unknown>;
}

/** The agent on it: the template fields a demo sets. */
export interface FauxAgentSeed {
  name: string;
  description: string;
  systemPrompt: string;
  tools: unknown[];
  /** Where a run's files come from when it names none (`AgentTemplate.workspace`). */
  workspace?: Record<string, unknown>;
  /** A final answer waits for the next message instead of finishing the run. */
  persistent?: boolean;
}

/** A demo's faux endpoint and its agent, each created (with its audit row) when missing. */
export async function seedFauxAgent(tx: Tx, teamId: string, seed: { endpoint: FauxEndpointSeed; agent: FauxAgentSeed }): Promise<void> {
  let endpoint = await tx.modelEndpoint.findUnique({ where: { teamId_name: { teamId, name: seed.endpoint.name } } });
  if (!endpoint) {
    endpoint = await tx.modelEndpoint.create({ data: { teamId, ...seed.endpoint, config: seed.endpoint.config as Prisma.InputJsonValue } });
    await appendAudit(tx, {
      teamId,
      actor: SYSTEM,
      action: 'endpoint.created',
      targetType: 'endpoint',
      targetId: endpoint.id,
      data: { name: endpoint.name, kind: 'faux' },
    });
  }
  if (await tx.agentTemplate.findUnique({ where: { teamId_name: { teamId, name: seed.agent.name } } })) return;
  const agent = await tx.agentTemplate.create({
    data: {
      teamId,
      name: seed.agent.name,
      endpointId: endpoint.id,
      description: seed.agent.description,
      systemPrompt: seed.agent.systemPrompt,
      tools: seed.agent.tools as Prisma.InputJsonValue,
      busyPolicy: 'enqueue',
      slashCommands: [] as Prisma.InputJsonValue,
      ...(seed.agent.workspace ? { workspace: seed.agent.workspace as Prisma.InputJsonValue } : {}),
      ...(seed.agent.persistent ? { persistent: true } : {}),
    },
  });
  await appendAudit(tx, { teamId, actor: SYSTEM, action: 'agent.created', targetType: 'agent', targetId: agent.id, data: { name: agent.name } });
}
