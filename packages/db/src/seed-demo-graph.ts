import type { Tx } from './audit/audit.repository';
import { appendAudit } from './audit/audit.repository';
import type { Prisma } from './generated/prisma/client';
import { memoryToolSpecs } from './swarm/memory-tools';

const SYSTEM = { type: 'system', name: 'seed' } as const;
export const DEMO_GRAPH_NAME = 'demo-swarm';

/** A faux endpoint per node, each with its node's script (a few hundred ms per turn, cheap prices). */
const nodes = [
  {
    key: 'planner',
    description: 'Splits the goal between a researcher and a coder',
    read: [] as string[],
    write: [] as string[],
    script: [
      // Research first, then code: the coder reads the findings the researcher writes to shared memory.
      {
        say: 'Research first.',
        calls: [
          { tool: 'delegate', args: { to: 'researcher', goal: 'Find what users ask for most in the feedback (token sk-demo12345678 must never cross).' } },
        ],
      },
      { say: 'Now the feature.', calls: [{ tool: 'delegate', args: { to: 'coder', goal: 'Implement the most requested feature and get it reviewed.' } }] },
      { finish: 'Plan done: research summarised in notes/research, feature implemented and reviewed.' },
    ],
  },
  {
    key: 'researcher',
    description: 'Reads feedback and writes findings to shared memory',
    read: ['notes/'],
    write: ['notes/'],
    script: [
      {
        say: 'Recording findings.',
        calls: [
          { tool: 'load_tools', args: { names: ['memory_set'] } },
          { tool: 'memory_set', args: { key: 'notes/research', value: { top: 'dark mode', votes: 42 }, expectedVersion: 0 } },
        ],
      },
      { finish: 'Users ask for dark mode most (42 votes); details in notes/research. Internal key sk-demo12345678 is redacted on the way out.' },
    ],
  },
  {
    key: 'coder',
    description: 'Implements what the research found, then asks for a review',
    read: ['notes/'],
    write: [],
    script: [
      {
        say: 'Reading the findings.',
        calls: [
          { tool: 'load_tools', args: { names: ['memory_get'] } },
          { tool: 'memory_get', args: { key: 'notes/research' } },
        ],
      },
      { say: 'Asking for a review.', delegate: { to: 'reviewer', goal: 'Review the dark mode change.' } },
      { finish: 'Dark mode implemented; the reviewer approved it.' },
    ],
  },
  { key: 'reviewer', description: 'Reviews a change', read: [], write: [], script: [{ finish: 'LGTM: the change is small and tested.' }] },
];

const redact = ['sk-[A-Za-z0-9]{8,}'];
/** Where the editor shows the nodes: the root on top, every edge pointing down, none behind a node. */
const POSITIONS: Record<string, { x: number; y: number }> = {
  planner: { x: 130, y: 0 },
  researcher: { x: 0, y: 140 },
  coder: { x: 260, y: 140 },
  reviewer: { x: 260, y: 280 },
};
const edges = [
  {
    from: 'planner',
    to: 'researcher',
    purpose: 'Research what users want',
    budget: { tokens: 20_000, costMicros: 20_000, calls: 10, maxConcurrent: 2 },
    approvalRule: { mode: 'never' },
    dataRule: { maxBytesIn: 4000, maxBytesOut: 4000, redact },
  },
  {
    from: 'planner',
    to: 'coder',
    purpose: 'Implement a feature',
    budget: { tokens: 40_000, costMicros: 40_000, calls: 20, maxConcurrent: 1 },
    approvalRule: { mode: 'never' },
    dataRule: { maxBytesIn: 4000, maxBytesOut: 4000, redact },
  },
  {
    from: 'coder',
    to: 'reviewer',
    purpose: 'Review a change',
    budget: { tokens: 10_000, costMicros: 10_000, calls: 4, maxConcurrent: 1 },
    approvalRule: { mode: 'never' },
    dataRule: { maxBytesOut: 2000, redact },
  },
];

/**
 * The demo swarm of the demo team (planner → researcher, planner → coder, coder → reviewer), on
 * faux models, created when missing (by name): `runs.create({ graphId })` runs it end to end
 * offline, with delegation, shared memory, redaction and per-edge budgets to watch.
 */
export async function seedDemoGraph(tx: Tx, teamId: string): Promise<void> {
  if (await tx.swarmGraph.findUnique({ where: { teamId_name: { teamId, name: DEMO_GRAPH_NAME } } })) return;
  const agents = new Map<string, string>();
  for (const node of nodes) {
    const name = `swarm-${node.key}`;
    const found = await tx.agentTemplate.findUnique({ where: { teamId_name: { teamId, name } } });
    if (found) {
      agents.set(node.key, found.id);
      continue;
    }
    const endpoint = await tx.modelEndpoint.upsert({
      where: { teamId_name: { teamId, name: `faux-${name}` } },
      update: {},
      create: {
        teamId,
        name: `faux-${name}`,
        kind: 'faux',
        model: 'faux-1',
        contextWindow: 32_000,
        maxOutputTokens: 1024,
        inputMicrosPerMTok: 150_000,
        outputMicrosPerMTok: 600_000,
        config: { thinkMs: 300, chunkDelayMs: 30, chunkChars: 8, script: node.script } as Prisma.InputJsonValue,
      },
    });
    const agent = await tx.agentTemplate.create({
      data: {
        teamId,
        name,
        endpointId: endpoint.id,
        description: node.description,
        systemPrompt: `You are the ${node.key} of a small team.`,
        // The blackboard tools come with the node's prefixes; nothing else is needed.
        tools: [] as Prisma.InputJsonValue,
        busyPolicy: 'enqueue',
      },
    });
    await appendAudit(tx, { teamId, actor: SYSTEM, action: 'agent.created', targetType: 'agent', targetId: agent.id, data: { name } });
    agents.set(node.key, agent.id);
  }
  const graph = await tx.swarmGraph.create({ data: { teamId, name: DEMO_GRAPH_NAME, description: 'Planner, researcher, coder and reviewer on faux models' } });
  await tx.graphVersion.create({
    data: {
      graphId: graph.id,
      version: 1,
      rootNodeKey: 'planner',
      nodes: {
        create: nodes.map((n, i) => ({
          key: n.key,
          agentId: agents.get(n.key)!,
          isolation: 'shared' as const,
          readPrefixes: n.read,
          writePrefixes: n.write,
          position: POSITIONS[n.key] ?? { x: 0, y: i * 140 },
        })),
      },
      edges: {
        create: edges.map((e) => ({ fromKey: e.from, toKey: e.to, purpose: e.purpose, budget: e.budget, approvalRule: e.approvalRule, dataRule: e.dataRule })),
      },
    },
  });
  await appendAudit(tx, {
    teamId,
    actor: SYSTEM,
    action: 'graph.created',
    targetType: 'graph',
    targetId: graph.id,
    data: {
      name: DEMO_GRAPH_NAME,
      version: 1,
      root: 'planner',
      nodes: nodes.map((n) => `${n.key}:shared`),
      edges: edges.map((e) => `${e.from}->${e.to}`),
      memoryTools: memoryToolSpecs({ read: true, write: true }).map((t) => t.name),
    },
  });
}
