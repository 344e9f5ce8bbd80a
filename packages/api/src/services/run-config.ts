import {
  expandSlashCommand,
  parseRunConfig,
  slashCommandsSchema,
  type ExpandedCommand,
  type RunConfig,
  type SkillIndexEntry,
  type ToolSpec,
} from '@looplane/engine';
import { modelLimitsOf, type EndpointSettings } from '@looplane/models';
import { AppError } from '@looplane/shared';
import { agentToolsSchema, sandboxSettingsSchema } from '../routers/agents.schema';
import type { RunBudget } from '../routers/runs.schema';

/** The agent template columns a run config is built from. */
interface TemplateForRun {
  name: string;
  systemPrompt: string;
  tools: unknown;
  slashCommands: unknown;
  /** The template's sandbox settings (network, egress hosts, limits); absent or `{}`: defaults. */
  sandbox?: unknown;
  endpoint: EndpointSettings;
}

/** The run config's sandbox section from a template's settings; undefined when the template sets nothing. */
function runSandboxOf(template: TemplateForRun): RunConfig['sandbox'] {
  if (template.sandbox === undefined) return undefined;
  const parsed = sandboxSettingsSchema.safeParse(template.sandbox);
  if (!parsed.success) throw new AppError('BAD_REQUEST', `agent ${template.name} has invalid sandbox settings; fix the template first`);
  const s = parsed.data;
  if (Object.keys(s).length === 0) return undefined;
  const limits = {
    ...(s.timeoutMs !== undefined ? { wallTimeMs: s.timeoutMs } : {}),
    ...(s.memoryMb !== undefined ? { memoryBytes: s.memoryMb * 1024 * 1024 } : {}),
    ...(s.cpus !== undefined ? { cpus: s.cpus } : {}),
    ...(s.pids !== undefined ? { pids: Math.max(8, s.pids) } : {}),
  };
  return {
    ...(s.driver ? { driver: s.driver } : {}),
    ...(s.podmanRuntime ? { podmanRuntime: s.podmanRuntime } : {}),
    ...(s.whenIsolationUnavailable ? { whenIsolationUnavailable: s.whenIsolationUnavailable } : {}),
    network: s.network ?? (s.egressHosts?.length ? 'egress' : 'none'),
    egressHosts: s.egressHosts ?? [],
    limits,
  };
}

/** The skills a run is offered (names and one-liners) and those it loads before its goal. */
export interface RunSkills {
  offered: SkillIndexEntry[];
  preload: string[];
}

/**
 * The engine's complete run config for a new session: the template's prompt and tools, the
 * endpoint's limits and prices, the budget's exceed behaviour, the skills it may load. It is
 * snapshotted on the session, so later edits of the template, endpoint or skills never change a
 * run that already exists.
 */
export function buildRunConfig(
  template: TemplateForRun,
  budget: RunBudget,
  mcpTools: readonly ToolSpec[] = [],
  skills: RunSkills = { offered: [], preload: [] },
): RunConfig {
  const tools = agentToolsSchema.safeParse(template.tools);
  if (!tools.success) throw new AppError('BAD_REQUEST', `agent ${template.name} has invalid tools; fix the template first`);
  return parseRunConfig({
    systemPrompt: template.systemPrompt,
    model: modelLimitsOf(template.endpoint),
    // The team's MCP tools (`mcp:<server>:<tool>`) follow the template's own.
    tools: [...tools.data, ...mcpTools.filter((t) => !tools.data.some((own) => own.name === t.name))],
    // The faux model is offline and free: summarise deterministically instead of asking it.
    compaction: { summarizer: template.endpoint.kind === 'faux' ? 'deterministic' : 'model' },
    onBudgetExceeded: budget.onExceed,
    ...(runSandboxOf(template) ? { sandbox: runSandboxOf(template) } : {}),
    // Absent when none, so the configs of runs without skills stay as they were.
    ...(skills.offered.length > 0 ? { skills: skills.offered } : {}),
    ...(skills.preload.length > 0 ? { preloadSkills: skills.preload } : {}),
  });
}

/**
 * The goal a run starts with. `/name args…` is expanded with the agent's slash commands; an
 * unknown command or a missing argument is a BAD_REQUEST naming what is available.
 */
export function resolveGoal(template: TemplateForRun, goal: string): { goal: string; command: ExpandedCommand['command'] | null; skill?: string } {
  if (!goal.startsWith('/')) return { goal, command: null };
  const commands = slashCommandsSchema.safeParse(template.slashCommands);
  if (!commands.success) throw new AppError('BAD_REQUEST', `agent ${template.name} has invalid slash commands; fix the template first`);
  const expanded = expandSlashCommand(goal, commands.data);
  if (expanded.goal === '') throw new AppError('BAD_REQUEST', `/${expanded.command.name} expanded to an empty goal; give its arguments`);
  return expanded;
}
