import { appendAudit, type Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { Dispatch } from '../dispatch';
import type { PrincipalActor } from '../trpc';
import type { CreateRunInput, RunBudget } from '../routers/runs.schema';
import { newId } from './ids';
import { buildRunConfig, resolveGoal } from './run-config';

/** What the services that change runs need besides the database. */
export interface RunDeps {
  db: Db;
  dispatch: Dispatch;
}

function bigOrNull(value: number | undefined): bigint | null {
  return value === undefined ? null : BigInt(value);
}

/**
 * Starts a run of an agent: in one transaction the run (queued), its root session (idle, with the
 * engine's run config snapshotted), the run budget ledger and the `run.created` audit row. After
 * the commit the root session is enqueued and the team's dashboards hear about it. The API never
 * appends events: the worker that claims the session writes `run.started`.
 */
export async function createRun(deps: RunDeps, actor: PrincipalActor, teamId: string, input: CreateRunInput, ip: string | null): Promise<{ runId: string }> {
  if (!input.agentId) {
    throw new AppError('BAD_REQUEST', 'Runs of swarm graphs are not available yet; start the run with agentId');
  }
  const agent = await deps.db.agentTemplate.findFirst({
    where: { id: input.agentId, teamId, archivedAt: null },
    include: { endpoint: true },
  });
  if (!agent) throw new AppError('NOT_FOUND', 'No such agent in this team');
  if (agent.endpoint.deletedAt) {
    throw new AppError('PRECONDITION_FAILED', `The model endpoint ${agent.endpoint.name} of agent ${agent.name} was deleted; pick another endpoint for the agent`);
  }
  const { goal, command } = resolveGoal(agent, input.goal);
  const budget: RunBudget = input.budget ?? { onExceed: 'wait' };
  const config = buildRunConfig(agent, budget);

  const runId = newId();
  const sessionId = newId();
  await deps.db.$transaction(async (tx) => {
    // Run, root session and run ledger in one statement (one round trip): this is the hot path of
    // runs.create. Ids are made here so the run can name its root session up front.
    await tx.$executeRaw`
      WITH run AS (
        INSERT INTO "Run" (id, "teamId", "agentId", goal, status, "createdById", "createdByTokenId", "busyPolicy", budget,
                           "rootSessionId", "mainSessionId", "updatedAt")
        VALUES (${runId}, ${teamId}, ${agent.id}, ${goal}, 'queued', ${actor.userId}, ${actor.type === 'token' ? actor.tokenId : null},
                ${agent.busyPolicy}, ${JSON.stringify(budget)}::jsonb, ${sessionId}, ${sessionId}, now())
        RETURNING id
      ), session AS (
        INSERT INTO "Session" (id, "runId", "agentId", "endpointId", status, config, title, "createdById", "updatedAt")
        SELECT ${sessionId}, id, ${agent.id}, ${agent.endpointId}, 'idle', ${JSON.stringify(config)}::jsonb, ${agent.name}, ${actor.userId}, now() FROM run
      )
      INSERT INTO "BudgetLedger" (id, "runId", scope, "scopeId", "limitTokens", "limitCostMicros", "limitCalls", "updatedAt")
      SELECT ${newId()}, id, 'run', '', ${bigOrNull(budget.tokens)}::bigint, ${bigOrNull(budget.costMicros)}::bigint, ${budget.toolCalls ?? null}::int, now() FROM run`;
    await appendAudit(tx, {
      teamId, actor, ip, action: 'run.created', targetType: 'run', targetId: runId,
      data: { agentId: agent.id, agentVersion: agent.version, sessionId, command: command?.name ?? null, budget },
    });
  });

  await Promise.all([
    deps.dispatch.enqueueSession({ runId, sessionId, reason: 'start' }),
    deps.dispatch.teamActivity(teamId, { kind: 'run.status', runId, status: 'queued' }),
  ]);
  return { runId };
}
