import type { ToolArgs } from '@looplane/engine';
import type { Prisma } from './generated/prisma/client';
import type { Tx } from './audit/audit.repository';
import { appendAudit } from './audit/audit.repository';

const SYSTEM = { type: 'system', name: 'seed' } as const;

/** The demo's tool calls, one per step: the sandboxed built-in tools at work in a workspace (bench/sandbox/demo-run.ts runs them on each driver). */
export const STEP_CALLS: { say: string; tool: string; args: ToolArgs }[] = [
  {
    say: 'loading the file and shell tools.',
    tool: 'load_tools',
    args: { names: ['write_file', 'read_file', 'edit_file', 'list_files', 'search_files', 'shell'] },
  },
  { say: 'writing the plan.', tool: 'write_file', args: { path: 'notes/plan.md', content: '# Plan\n- part 1: todo\n- part 2: todo\n- part 3: todo\n' } },
  { say: 'listing the workspace.', tool: 'list_files', args: {} },
  { say: 'reading the plan back with a shell.', tool: 'shell', args: { command: 'cat notes/plan.md' } },
  { say: 'marking part 1 done.', tool: 'edit_file', args: { path: 'notes/plan.md', old_string: 'part 1: todo', new_string: 'part 1: done' } },
  { say: 'searching for what is done.', tool: 'search_files', args: { pattern: 'done' } },
  { say: 'logging progress.', tool: 'shell', args: { command: 'echo "checked part 2" >> notes/log.txt && wc -l notes/plan.md' } },
  { say: 'reading the log.', tool: 'read_file', args: { path: 'notes/log.txt' } },
  { say: 'marking part 2 done.', tool: 'edit_file', args: { path: 'notes/plan.md', old_string: 'part 2: todo', new_string: 'part 2: done' } },
  { say: 'writing the summary.', tool: 'write_file', args: { path: 'notes/summary.md', content: 'Parts 1 and 2 done; part 3 left for later.\n' } },
  { say: 'listing the notes.', tool: 'list_files', args: { path: 'notes' } },
  { say: 'printing the summary.', tool: 'shell', args: { command: 'cat notes/summary.md notes/plan.md' } },
];
const STEPS = STEP_CALLS.length;

const pathArg = { type: 'string', description: 'Path relative to the workspace root' };
/**
 * The catalogue entries of the sandbox's built-in tools the demo uses (the worker registers the
 * tools themselves; `@looplane/sandbox` has the full schemas). Idempotency is the tool's own.
 */
export const DEMO_TOOLS = [
  {
    name: 'write_file',
    description: 'Create or overwrite a file in the workspace with the given content.',
    idempotent: false,
    parameters: { type: 'object', properties: { path: pathArg, content: { type: 'string' } }, required: ['path', 'content'] },
  },
  {
    name: 'read_file',
    description: 'Read a text file of the workspace.',
    idempotent: true,
    parameters: { type: 'object', properties: { path: pathArg, offset: { type: 'integer' }, limit: { type: 'integer' } }, required: ['path'] },
  },
  {
    name: 'edit_file',
    description: 'Replace an exact string in a workspace file.',
    idempotent: false,
    parameters: {
      type: 'object',
      properties: { path: pathArg, old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean' } },
      required: ['path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'list_files',
    description: 'List a directory of the workspace.',
    idempotent: true,
    parameters: { type: 'object', properties: { path: pathArg, depth: { type: 'integer' } } },
  },
  {
    name: 'search_files',
    description: 'Search file contents of the workspace with grep.',
    idempotent: true,
    parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: pathArg }, required: ['pattern'] },
  },
  {
    name: 'shell',
    description: 'Run a command in the sandbox, in the workspace (mounted at /workspace).',
    idempotent: false,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'A command line, run by /bin/sh -c' },
        argv: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string' },
        timeout_ms: { type: 'integer' },
      },
    },
  },
];

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
    // Every step calls a built-in tool, run by the worker in the session's sandboxed workspace
    // (bwrap): files written, listed, edited, searched and `cat` by a shell. An agent whose
    // catalogue lacks these tools (e.g. one made without tools) gets each call rejected and
    // the loop still goes on, so the script suits any agent on this endpoint.
    script: STEP_CALLS.map((call, i) => ({ say: `Step ${i + 1} of ${STEPS}: ${call.say}`, calls: [{ tool: call.tool, args: call.args }] })),
  },
};

/** Where `faux-steps-alt` takes another route: its 7th step logs something else. */
const ALT_STEP = 6;

/**
 * A second scripted endpoint for trying `sessions.replay`: it agrees with `faux-steps` for six
 * steps and then logs something else, so a replay of a `demo-steps` run on it serves six recorded
 * results and diverges at turn 7.
 */
const fauxStepsAlt = {
  ...fauxSteps,
  name: 'faux-steps-alt',
  config: {
    ...fauxSteps.config,
    script: fauxSteps.config.script.map((turn, i) =>
      i === ALT_STEP
        ? {
            say: `Step ${i + 1} of ${STEPS}: logging progress another way.`,
            calls: [{ tool: 'shell', args: { command: 'echo "checked part 2 another way" >> notes/log.txt' } }],
          }
        : turn,
    ),
  },
};

const demoAgents = (fauxId: string, stepsId: string) => [
  {
    name: 'demo',
    endpointId: fauxId,
    description: 'Answers at once (faux model)',
    tools: [] as typeof DEMO_TOOLS,
    slashCommands: [
      { name: 'triage', description: 'Triage a bug report', goalTemplate: 'Triage this report: {{report}}', args: [{ name: 'report', required: true }] },
      { name: 'summarize', description: 'Summarise a topic', goalTemplate: 'Summarise {{topic}}', args: [{ name: 'topic' }] },
    ],
  },
  {
    name: 'demo-steps',
    endpointId: stepsId,
    description: `Takes ~10 s: ${STEPS} scripted steps with sandboxed file and shell tools`,
    tools: DEMO_TOOLS,
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
    await appendAudit(tx, {
      teamId,
      actor: SYSTEM,
      action: 'endpoint.created',
      targetType: 'endpoint',
      targetId: steps.id,
      data: { name: steps.name, kind: 'faux' },
    });
  }
  if (!(await tx.modelEndpoint.findUnique({ where: { teamId_name: { teamId, name: fauxStepsAlt.name } } }))) {
    const alt = await tx.modelEndpoint.create({ data: { teamId, ...fauxStepsAlt, config: fauxStepsAlt.config as Prisma.InputJsonValue } });
    await appendAudit(tx, {
      teamId,
      actor: SYSTEM,
      action: 'endpoint.created',
      targetType: 'endpoint',
      targetId: alt.id,
      data: { name: alt.name, kind: 'faux' },
    });
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
        tools: agent.tools as Prisma.InputJsonValue,
        busyPolicy: 'enqueue',
        slashCommands: agent.slashCommands as Prisma.InputJsonValue,
      },
    });
    await appendAudit(tx, { teamId, actor: SYSTEM, action: 'agent.created', targetType: 'agent', targetId: row.id, data: { name: agent.name } });
  }
  await (await import('./seed-demo-graph')).seedDemoGraph(tx, teamId);
}
