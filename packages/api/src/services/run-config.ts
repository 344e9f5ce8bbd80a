import { expandSlashCommand, parseRunConfig, slashCommandsSchema, type ExpandedCommand, type RunConfig } from '@looplane/engine';
import { modelLimitsOf, type EndpointSettings } from '@looplane/models';
import { AppError } from '@looplane/shared';
import { agentToolsSchema } from '../routers/agents.schema';
import type { RunBudget } from '../routers/runs.schema';

/** The agent template columns a run config is built from. */
interface TemplateForRun {
  name: string;
  systemPrompt: string;
  tools: unknown;
  slashCommands: unknown;
  endpoint: EndpointSettings;
}

/**
 * The engine's complete run config for a new session: the template's prompt and tools, the
 * endpoint's limits and prices, the budget's exceed behaviour. It is snapshotted on the session,
 * so later edits of the template or endpoint never change a run that already exists.
 */
export function buildRunConfig(template: TemplateForRun, budget: RunBudget): RunConfig {
  const tools = agentToolsSchema.safeParse(template.tools);
  if (!tools.success) throw new AppError('BAD_REQUEST', `agent ${template.name} has invalid tools; fix the template first`);
  return parseRunConfig({
    systemPrompt: template.systemPrompt,
    model: modelLimitsOf(template.endpoint),
    tools: tools.data,
    // The faux model is offline and free: summarise deterministically instead of asking it.
    compaction: { summarizer: template.endpoint.kind === 'faux' ? 'deterministic' : 'model' },
    onBudgetExceeded: budget.onExceed,
  });
}

/**
 * The goal a run starts with. `/name args…` is expanded with the agent's slash commands; an
 * unknown command or a missing argument is a BAD_REQUEST naming what is available.
 */
export function resolveGoal(template: TemplateForRun, goal: string): { goal: string; command: ExpandedCommand['command'] | null } {
  if (!goal.startsWith('/')) return { goal, command: null };
  const commands = slashCommandsSchema.safeParse(template.slashCommands);
  if (!commands.success) throw new AppError('BAD_REQUEST', `agent ${template.name} has invalid slash commands; fix the template first`);
  const expanded = expandSlashCommand(goal, commands.data);
  if (expanded.goal === '') throw new AppError('BAD_REQUEST', `/${expanded.command.name} expanded to an empty goal; give its arguments`);
  return expanded;
}
