import { unwrap, type Schema } from '@looplane/client';
import { UsageError } from '../command';
import { budgetOf, type BudgetFlags } from '../remote/budget-flags';
import type { RemoteSession } from '../remote/session';
import { workspaceChoice, type WorkspaceFlags } from '../remote/workspace-flags';

/** The options of `looplane schedule create`, as parseArgs gives them. */
export interface ScheduleCreateFlags extends BudgetFlags, WorkspaceFlags {
  name?: string | undefined;
  agent?: string | undefined;
  graph?: string | undefined;
  cron?: string | undefined;
  every?: string | undefined;
  timezone?: string | undefined;
  goal?: string | undefined;
  overlap?: string | undefined;
  'catch-up'?: string | undefined;
  'pause-after'?: string | undefined;
  paused?: boolean | undefined;
}

type CreateBody = Schema<'CreateScheduleRequest'>;
const OVERLAPS = ['skip', 'queue', 'cancel_previous'] as const;
const CATCH_UPS = ['none', 'latest'] as const;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `--every`: seconds, or a number with a unit (90s, 15m, 2h, 1d). */
export function everySecondsOf(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] || 's']! : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1) throw new UsageError('--every takes seconds or a number with s, m, h or d (e.g. 30, 15m, 2h)');
  return seconds;
}

const oneOf = <T extends string>(flag: string, value: string, allowed: readonly T[]): T => {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}`);
  return value as T;
};

/**
 * The request body the flags ask for, but for the agent or graph (named by the user, resolved
 * against the server by {@link resolveTarget}). Only the shape is checked here: the cron, the
 * time zone and the goal are the server's to judge, so its messages are the ones the user sees.
 * The defaults are the API's own (UTC, skip, latest, 5), sent as they are.
 */
export function scheduleBody(flags: ScheduleCreateFlags): Omit<CreateBody, 'agentId' | 'graphId'> {
  const name = flags.name?.trim();
  if (!name) throw new UsageError('--name NAME is required');
  if (!flags.agent && !flags.graph) throw new UsageError('--agent NAME or --graph NAME is required');
  if (flags.agent && flags.graph) throw new UsageError('give --agent or --graph, not both');
  if (flags.cron === undefined && flags.every === undefined) throw new UsageError('--cron EXPRESSION or --every INTERVAL is required');
  if (flags.cron !== undefined && flags.every !== undefined) throw new UsageError('give --cron or --every, not both');
  if (!flags.goal?.trim()) throw new UsageError('--goal TEXT is required');
  let pauseAfterFailures = 5;
  if (flags['pause-after'] !== undefined) {
    pauseAfterFailures = Number(flags['pause-after']);
    if (!Number.isInteger(pauseAfterFailures) || pauseAfterFailures < 1) throw new UsageError('--pause-after must be a whole number of 1 or more');
  }
  const files = workspaceChoice(flags);
  // An upload no run used expires after a day: a schedule cannot keep one.
  if (files.kind === 'archive') throw new UsageError('a schedule takes --repo or --from-session, not --archive');
  const budget = budgetOf(flags);
  return {
    name,
    ...(flags.cron !== undefined ? { cron: flags.cron } : { everySeconds: everySecondsOf(flags.every!) }),
    timezone: flags.timezone ?? 'UTC',
    goal: flags.goal,
    ...(budget ? { budget } : {}),
    ...(files.kind === 'source' ? { workspace: files.source } : {}),
    overlap: oneOf('overlap', flags.overlap ?? 'skip', OVERLAPS),
    catchUp: oneOf('catch-up', flags['catch-up'] ?? 'latest', CATCH_UPS),
    enabled: !flags.paused,
    pauseAfterFailures,
  };
}

/** The agent's or graph's id by its name; the error names the ones there are. */
export async function resolveTarget(
  session: RemoteSession,
  flags: Pick<ScheduleCreateFlags, 'agent' | 'graph'>,
): Promise<{ agentId: string } | { graphId: string }> {
  if (flags.graph) {
    const graphs = await unwrap(session.api.GET('/graphs'));
    const graph = graphs.find((g) => g.name === flags.graph);
    if (!graph) throw new Error(`no graph named "${flags.graph}" in team ${session.team.slug} (graphs: ${graphs.map((g) => g.name).join(', ') || 'none'})`);
    return { graphId: graph.id };
  }
  const agents = await unwrap(session.api.GET('/agents'));
  const agent = agents.find((a) => a.name === flags.agent);
  if (!agent) throw new Error(`no agent named "${flags.agent}" in team ${session.team.slug} (agents: ${agents.map((a) => a.name).join(', ') || 'none'})`);
  return { agentId: agent.id };
}
