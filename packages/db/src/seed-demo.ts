import type { Prisma } from './generated/prisma/client';
import type { Tx } from './audit/audit.repository';
import { appendAudit } from './audit/audit.repository';

const SYSTEM = { type: 'system', name: 'seed' } as const;
const STEPS = 12;

/** A faux endpoint whose script takes ~10 s, so a run can be watched, reloaded and cancelled. */
const fauxSteps = {
  name: 'faux-steps',
  kind: 'faux' as const,
  model: 'faux-1',
  contextWindow: 32000,
  maxOutputTokens: 1024,
  // Non-zero prices so the dashboard shows costs (micro-dollars per million tokens).
  inputMicrosPerMTok: 150_000,
  outputMicrosPerMTok: 600_000,
  config: {
    thinkMs: 400,
    chunkDelayMs: 40,
    chunkChars: 8,
    finalText: `All ${STEPS} steps done.`,
    // Each turn calls `note`, which is not in the agent's catalogue: the engine answers
    // tool.rejected and the loop goes on, so the demo needs no sandbox.
    script: Array.from({ length: STEPS }, (_, i) => ({
      say: `Step ${i + 1} of ${STEPS}: checking part ${i + 1}.`,
      calls: [{ tool: 'note', args: { step: i + 1 } }],
    })),
  },
};

const demoAgents = (fauxId: string, stepsId: string) => [
  {
    name: 'demo',
    endpointId: fauxId,
    description: 'Answers at once (faux model)',
    slashCommands: [
      { name: 'triage', description: 'Triage a bug report', goalTemplate: 'Triage this report: {{report}}', args: [{ name: 'report', required: true }] },
      { name: 'summarize', description: 'Summarise a topic', goalTemplate: 'Summarise {{topic}}', args: [{ name: 'topic' }] },
    ],
  },
  {
    name: 'demo-steps',
    endpointId: stepsId,
    description: `Takes ~10 s: ${STEPS} scripted steps`,
    slashCommands: [
      { name: 'steps', description: 'Walk through the steps', goalTemplate: 'Walk through the steps for {{topic}}', args: [{ name: 'topic', required: true }] },
    ],
  },
];

/**
 * Demo endpoint and agents of the demo team, created when missing (by name), so `npm start`
 * users can start a run at once and existing installations gain them on upgrade.
 */
export async function seedDemoContent(tx: Tx, teamId: string, fauxEndpointId: string): Promise<void> {
  let steps = await tx.modelEndpoint.findUnique({ where: { teamId_name: { teamId, name: fauxSteps.name } } });
  if (!steps) {
    steps = await tx.modelEndpoint.create({ data: { teamId, ...fauxSteps, config: fauxSteps.config as Prisma.InputJsonValue } });
    await appendAudit(tx, { teamId, actor: SYSTEM, action: 'endpoint.created', targetType: 'endpoint', targetId: steps.id, data: { name: steps.name, kind: 'faux' } });
  }
  for (const agent of demoAgents(fauxEndpointId, steps.id)) {
    const existing = await tx.agentTemplate.findUnique({ where: { teamId_name: { teamId, name: agent.name } } });
    if (existing) continue;
    const row = await tx.agentTemplate.create({
      data: {
        teamId,
        name: agent.name,
        endpointId: agent.endpointId,
        description: agent.description,
        systemPrompt: 'You are a helpful demo agent.',
        tools: [],
        busyPolicy: 'enqueue',
        slashCommands: agent.slashCommands as Prisma.InputJsonValue,
      },
    });
    await appendAudit(tx, { teamId, actor: SYSTEM, action: 'agent.created', targetType: 'agent', targetId: row.id, data: { name: agent.name } });
  }
}
