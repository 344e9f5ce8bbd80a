import type { AuditActor, AuditEntry, Db, QueuedRunInsert } from '@looplane/db';
import { sourceKindOf, type StoredWorkspace } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { PrincipalActor } from '../trpc';
import type { CreateRunInput, RunBudget } from '../routers/runs.schema';
import { newId } from '@looplane/db';
import { resolveWorkspaceSource, storedWorkspace } from './run-workspace';
import { agentLookup } from './run-agent-lookup';
import { runCreateBatcher } from './run-create-batch';
import { buildRunConfig, resolveGoal } from './run-config';
import { createReads } from './run-create-reads';
import { runSkillsOf } from './skills.service';
import { runLimitsOf, type RunDeps } from './runs.service';

/**
 * A validated create: every row it will insert, made before it joins a batch (the columns are the
 * data layer's {@link QueuedRunInsert}), and the audit row that records it.
 */
export interface PreparedRun extends Omit<QueuedRunInsert, 'budget' | 'workspace' | 'schedule'> {
  budget: RunBudget;
  /** Where the root session's files come from (the run's own, else the agent's default); null: empty. */
  workspace: StoredWorkspace | null;
  audit: AuditEntry;
  schedule?: RunScheduleTick;
}

/** A schedule's tick a run is made for, and who the audit row names (the system, for a tick). */
interface RunScheduleTick {
  scheduleId: string;
  scheduledAt: Date;
  auditActor: AuditActor;
}

/** A delivery to an inbound trigger a run is made for, and who the audit row names (the system). */
export interface RunTriggerDelivery {
  triggerId: string;
  auditActor: AuditActor;
}

/** What made a run that no person started directly: a schedule's tick or a trigger's delivery. */
export type RunOrigin = RunScheduleTick | RunTriggerDelivery;

/** What the `run.created` audit row says about the run's origin. */
export function originAuditData(origin: RunOrigin): Record<string, unknown> {
  return 'scheduleId' in origin ? { scheduleId: origin.scheduleId, scheduledAt: origin.scheduledAt.toISOString() } : { triggerId: origin.triggerId };
}

/** The prepared run linked to its origin, its audit row naming the origin's actor. */
function withOrigin(run: PreparedRun, origin: RunOrigin): PreparedRun {
  const audit = { ...run.audit, actor: origin.auditActor, data: { ...run.audit.data, ...originAuditData(origin) } };
  return 'scheduleId' in origin ? { ...run, schedule: origin, audit } : { ...run, triggerId: origin.triggerId, audit };
}

/**
 * Everything a create checks, done before the write: the agent exists in the team and is not
 * archived, its endpoint is not deleted, the goal's slash command expands, the config builds. A
 * create that fails here never joins a batch, so it cannot fail anyone else's.
 */
export async function prepareRun(db: Db, actor: PrincipalActor, teamId: string, input: CreateRunInput, ip: string | null): Promise<PreparedRun> {
  if (!input.agentId) {
    throw new AppError('BAD_REQUEST', 'Runs of swarm graphs are not available yet; start the run with agentId');
  }
  const agent = await agentLookup(db).find(teamId, input.agentId);
  if (!agent) throw new AppError('NOT_FOUND', 'No such agent in this team');
  if (agent.endpoint.deletedAt) {
    throw new AppError(
      'PRECONDITION_FAILED',
      `The model endpoint ${agent.endpoint.name} of agent ${agent.name} was deleted; pick another endpoint for the agent`,
    );
  }
  // The policy gate and the MCP catalogue are shared with concurrent creates of the team (each
  // still read after this create arrived), so a burst costs one read of each instead of one per create.
  const reads = createReads(db);
  const [, mcpTools] = await Promise.all([reads.endpointAllowed(teamId, agent.name, agent.endpoint.name), reads.mcpTools(teamId)]);
  const source = input.workspace ?? storedWorkspace(agent.workspace);
  const workspace = source ? await resolveWorkspaceSource(db, teamId, source) : null;
  const { goal, command, skill } = resolveGoal(agent, input.goal);
  const budget: RunBudget = input.budget ?? { onExceed: 'wait' };
  const built = buildRunConfig(agent, budget, mcpTools, await runSkillsOf(db, teamId, agent.skills, skill));
  // Only a persistent agent's config says so, so the configs of other runs stay as they were.
  const config = agent.persistent ? { ...built, persistent: true } : built;
  // Ids are made here so the run can name its root session up front.
  const runId = newId();
  const sessionId = newId();
  return {
    runId,
    sessionId,
    ledgerId: newId(),
    teamId,
    agentId: agent.id,
    endpointId: agent.endpointId,
    goal,
    createdById: actor.userId,
    createdByTokenId: actor.type === 'token' ? actor.tokenId : null,
    busyPolicy: agent.busyPolicy,
    persistent: agent.persistent,
    budget,
    workspace,
    config,
    title: agent.name,
    audit: {
      teamId,
      actor,
      ip,
      action: 'run.created',
      targetType: 'run',
      targetId: runId,
      data: {
        agentId: agent.id,
        agentVersion: agent.version,
        sessionId,
        command: command?.name ?? null,
        budget,
        ...(workspace ? { workspace: sourceKindOf(workspace) } : {}),
      },
    },
  };
}

/**
 * Starts a run of an agent: the run (queued), its root session (idle, with the engine's run config
 * snapshotted), the run budget ledger and the `run.created` audit row commit together; then the
 * root session is enqueued and the team's dashboards hear about it. The team's run-start limits
 * are checked in that transaction (run-start-limits.ts): a create over them is refused with
 * TOO_MANY_REQUESTS and writes nothing. Concurrent creates of this
 * process share one transaction and one audit-lock acquisition (group commit, see
 * run-create-batch.ts). The API never appends events: the worker that claims the session writes
 * `run.started`.
 */
export async function createRun(
  deps: RunDeps,
  actor: PrincipalActor,
  teamId: string,
  input: CreateRunInput,
  ip: string | null,
  origin?: RunOrigin,
): Promise<{ runId: string }> {
  const base = await prepareRun(deps.db, actor, teamId, input, ip);
  const prepared = origin ? withOrigin(base, origin) : base;
  await runCreateBatcher(deps.db).submit(prepared, deps.dispatch, runLimitsOf(deps));
  return { runId: prepared.runId };
}
