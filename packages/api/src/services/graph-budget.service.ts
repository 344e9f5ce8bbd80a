import { appendAudit, isTerminalRunStatus, parseSwarm, type Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { RaiseEdgeBudgetInput } from '../routers/graphs.schema';
import type { PrincipalActor } from '../trpc';
import type { RunDeps } from './runs.service';

const numberOrNull = (value: bigint | number | null) => (value === null ? null : Number(value));

/**
 * Raises one edge ledger of a graph run by the given amounts (a `raise` entry and a
 * `budget.raised` audit row naming the edge). Every session of the run parked on a budget wait is
 * woken: the worker resumes one only when every ledger on its path has room now.
 */
export async function raiseEdgeBudget(deps: RunDeps, actor: PrincipalActor, teamId: string, input: RaiseEdgeBudgetInput, ip: string | null) {
  const { runId, edgeId } = input;
  const outcome = await deps.db.$transaction(async (tx) => {
    const run = await tx.run.findFirst({ where: { id: runId, teamId }, select: { status: true, graphId: true } });
    if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
    if (!run.graphId) throw new AppError('BAD_REQUEST', 'The run is not a graph run; raise its budget with runs.raiseBudget');
    if (isTerminalRunStatus(run.status)) throw new AppError('PRECONDITION_FAILED', `The run already finished (${run.status})`);
    const current = await tx.budgetLedger.findUnique({ where: { runId_scope_scopeId: { runId, scope: 'edge', scopeId: edgeId } }, select: { id: true } });
    if (!current) throw new AppError('NOT_FOUND', 'No such edge in this run');
    const ledger = await tx.budgetLedger.update({
      where: { id: current.id },
      data: {
        ...(input.tokens !== undefined ? { limitTokens: { increment: BigInt(input.tokens) } } : {}),
        ...(input.costMicros !== undefined ? { limitCostMicros: { increment: BigInt(input.costMicros) } } : {}),
        ...(input.calls !== undefined ? { limitCalls: { increment: input.calls } } : {}),
      },
      select: { id: true, limitTokens: true, limitCostMicros: true, limitCalls: true },
    });
    await tx.budgetEntry.create({
      data: { ledgerId: ledger.id, kind: 'raise', tokens: BigInt(input.tokens ?? 0), costMicros: BigInt(input.costMicros ?? 0), calls: input.calls ?? 0 },
    });
    const limits = { tokens: numberOrNull(ledger.limitTokens), costMicros: numberOrNull(ledger.limitCostMicros), calls: ledger.limitCalls };
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'budget.raised',
      targetType: 'run',
      targetId: runId,
      data: { ledgerId: ledger.id, edgeId, by: { tokens: input.tokens ?? 0, costMicros: input.costMicros ?? 0, calls: input.calls ?? 0 }, limits },
    });
    const waiting = await tx.session.findMany({ where: { runId, status: 'waiting', waitReason: 'budget' }, select: { id: true } });
    return { limits, waiting: waiting.map((s) => s.id) };
  });
  for (const sessionId of outcome.waiting) await deps.dispatch.enqueueSession({ runId, sessionId, reason: 'resume' });
  return { runId, edgeId, limits: outcome.limits, woken: outcome.waiting.length };
}

/**
 * A graph run as the live graph draws it: the snapshot's nodes and edges, every session (node,
 * edge, parent, status), and each edge ledger's spend against its limits.
 */
export async function runGraphView(db: Db, teamId: string, runId: string) {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { id: true, status: true, swarm: true } });
  if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
  const swarm = parseSwarm(run.swarm);
  if (!swarm) throw new AppError('BAD_REQUEST', 'The run is not a graph run');
  const [sessions, ledgers] = await Promise.all([
    db.session.findMany({
      where: { runId },
      select: { id: true, nodeKey: true, edgeId: true, parentId: true, status: true, waitReason: true },
      orderBy: { createdAt: 'asc' },
    }),
    db.budgetLedger.findMany({ where: { runId } }),
  ]);
  const gauge = (l: (typeof ledgers)[number] | undefined) =>
    l && {
      spentTokens: Number(l.spentTokens),
      reservedTokens: Number(l.reservedTokens),
      limitTokens: numberOrNull(l.limitTokens),
      spentCostMicros: Number(l.spentCostMicros),
      reservedCostMicros: Number(l.reservedCostMicros),
      limitCostMicros: numberOrNull(l.limitCostMicros),
      calls: l.calls,
      limitCalls: l.limitCalls,
      concurrent: l.concurrent,
      limitConcurrent: l.limitConcurrent,
    };
  return {
    runId,
    status: run.status,
    root: swarm.root,
    nodes: swarm.nodes.map((n) => ({ key: n.key, title: n.title, isolation: n.isolation })),
    edges: swarm.edges.map((e) => ({
      id: e.id,
      from: e.from,
      to: e.to,
      purpose: e.purpose,
      ledger: gauge(ledgers.find((l) => l.scope === 'edge' && l.scopeId === e.id)),
    })),
    run: gauge(ledgers.find((l) => l.scope === 'run')),
    sessions,
  };
}
