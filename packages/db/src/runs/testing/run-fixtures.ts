import { randomBytes } from 'node:crypto';
import { parseRunConfig, type RunConfigInput, type ScriptTurn } from '@looplane/engine';
import type { Db } from '../../client';
import type { Prisma } from '../../generated/prisma/client';
import type { Queryable } from '../pg-pool';

/**
 * Rows a run needs, inserted the way `runs.create` does (run queued, root session idle with the
 * engine config snapshot, run-scope ledger), for the runtime's tests and benchmarks. Nothing here
 * appends events: the worker does.
 */

const unique = (label: string, bytes = 4) => `${label}-${randomBytes(bytes).toString('hex')}`;

/** A policy document that allows every call: the runtime's tests are about the runtime, not policy. */
const ALLOW_ALL_POLICY = { version: 1, name: 'test: allow all', default: 'allow' } as const;

/**
 * Creates a team (default limit of 20 running runs, as in the schema) whose active policy version
 * is `policy` (default {@link ALLOW_ALL_POLICY}; null: no policy, so the built-in default applies).
 */
export async function createTestTeam(db: Db, options: { maxConcurrentRuns?: number; policy?: Record<string, unknown> | null } = {}): Promise<string> {
  const slug = unique('team');
  const team = await db.team.create({ data: { slug, name: slug, ...(options.maxConcurrentRuns ? { maxConcurrentRuns: options.maxConcurrentRuns } : {}) } });
  const document = options.policy === undefined ? ALLOW_ALL_POLICY : options.policy;
  if (document) {
    await db.policy.create({
      data: {
        teamId: team.id,
        name: 'default',
        activeVersion: 1,
        versions: { create: { version: 1, document: document as Prisma.InputJsonValue, comment: 'test fixture' } },
      },
    });
  }
  return team.id;
}

export interface TestAgentOptions {
  /** The faux model's script; its `thinkMs` before each answer. */
  script?: ScriptTurn[];
  thinkMs?: number;
  chunkDelayMs?: number;
  /** Prices in micro-dollars per million tokens (default 0: free). */
  inputMicrosPerMTok?: number;
  outputMicrosPerMTok?: number;
  maxOutputTokens?: number;
  maxConcurrentRuns?: number;
  busyPolicy?: 'reject' | 'enqueue' | 'interrupt';
}

export interface TestAgent {
  teamId: string;
  agentId: string;
  endpointId: string;
  busyPolicy: string;
  limits: { model: string; contextWindow: number; maxOutputTokens: number; inputMicrosPerMTok: number; outputMicrosPerMTok: number };
}

/** A faux endpoint with a script and an agent template on it. */
export async function createTestAgent(db: Db, teamId: string, options: TestAgentOptions = {}): Promise<TestAgent> {
  const limits = {
    model: 'faux-1',
    contextWindow: 32_000,
    maxOutputTokens: options.maxOutputTokens ?? 512,
    inputMicrosPerMTok: options.inputMicrosPerMTok ?? 0,
    outputMicrosPerMTok: options.outputMicrosPerMTok ?? 0,
  };
  const endpoint = await db.modelEndpoint.create({
    data: {
      teamId,
      name: unique('faux'),
      kind: 'faux',
      ...limits,
      config: { script: options.script ?? [], thinkMs: options.thinkMs ?? 0, chunkDelayMs: options.chunkDelayMs ?? 0 } as Prisma.InputJsonValue,
    },
  });
  const busyPolicy = options.busyPolicy ?? 'enqueue';
  const agent = await db.agentTemplate.create({
    data: { teamId, name: unique('agent'), endpointId: endpoint.id, busyPolicy, maxConcurrentRuns: options.maxConcurrentRuns ?? null },
  });
  return { teamId, agentId: agent.id, endpointId: endpoint.id, busyPolicy, limits };
}

export interface TestRunOptions {
  goal?: string;
  /** Merged into the run config (the endpoint's limits are filled in). */
  config?: Partial<RunConfigInput>;
  /** Run ledger limits (omitted: unlimited) and what a refused reservation does. */
  budget?: { tokens?: number; costMicros?: number; toolCalls?: number; wallMs?: number; onExceed?: 'wait' | 'fail' };
}

/** A queued run of the agent: Run, root Session (idle, config snapshot), run ledger. */
export async function createTestRun(db: Db, agent: TestAgent, options: TestRunOptions = {}): Promise<{ runId: string; sessionId: string }> {
  const budget = { onExceed: 'wait' as const, ...options.budget };
  const config = parseRunConfig({
    ...options.config,
    model: agent.limits,
    compaction: { summarizer: 'deterministic' },
    onBudgetExceeded: budget.onExceed,
  });
  return db.$transaction(async (tx) => {
    const run = await tx.run.create({
      data: {
        teamId: agent.teamId,
        agentId: agent.agentId,
        goal: options.goal ?? 'Do the task.',
        status: 'queued',
        busyPolicy: agent.busyPolicy,
        budget: budget as Prisma.InputJsonValue,
      },
    });
    const session = await tx.session.create({
      data: { runId: run.id, agentId: agent.agentId, endpointId: agent.endpointId, status: 'idle', config: config as unknown as Prisma.InputJsonValue },
    });
    await tx.run.update({ where: { id: run.id }, data: { rootSessionId: session.id, mainSessionId: session.id } });
    await tx.budgetLedger.create({
      data: {
        runId: run.id,
        scope: 'run',
        scopeId: '',
        limitTokens: budget.tokens === undefined ? null : BigInt(budget.tokens),
        limitCostMicros: budget.costMicros === undefined ? null : BigInt(budget.costMicros),
        limitCalls: budget.toolCalls ?? null,
      },
    });
    return { runId: run.id, sessionId: session.id };
  });
}

/**
 * Many queued runs of one agent at once (benchmarks): the same rows as {@link createTestRun}, in
 * one statement, so a duplicate id fails the whole batch and leaves no half-made run behind (a
 * run whose session exists without its ledger would still be picked up by the reconciler).
 * Unlimited budgets.
 */
export async function createTestRunsBulk(
  pool: Queryable,
  agent: TestAgent,
  count: number,
  options: Omit<TestRunOptions, 'budget'> = {},
): Promise<{ runId: string; sessionId: string }[]> {
  const config = parseRunConfig({ ...options.config, model: agent.limits, compaction: { summarizer: 'deterministic' } });
  // 64 random bits: thousands of runs per call would collide on 32 about once in a hundred tries.
  const runs = Array.from({ length: count }, () => ({ runId: unique('run', 8), sessionId: unique('ses', 8), ledgerId: unique('led', 8) }));
  await pool.query({
    text: `WITH x AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS x(r, s, l)),
      runs AS (
        INSERT INTO "Run" (id, "teamId", "agentId", goal, status, "busyPolicy", budget, "rootSessionId", "mainSessionId", "updatedAt")
        SELECT r, $4, $5, $6, 'queued', $7, '{"onExceed":"wait"}', s, s, now() FROM x
      ),
      sessions AS (
        INSERT INTO "Session" (id, "runId", "agentId", "endpointId", status, config, "updatedAt")
        SELECT s, r, $5, $8, 'idle', $9::jsonb, now() FROM x
      )
      INSERT INTO "BudgetLedger" (id, "runId", scope, "scopeId", "updatedAt") SELECT l, r, 'run', '', now() FROM x`,
    values: [
      runs.map((r) => r.runId),
      runs.map((r) => r.sessionId),
      runs.map((r) => r.ledgerId),
      agent.teamId,
      agent.agentId,
      options.goal ?? 'Do the task.',
      agent.busyPolicy,
      agent.endpointId,
      JSON.stringify(config),
    ],
  });
  return runs.map(({ runId, sessionId }) => ({ runId, sessionId }));
}
