import { runEdgeSpend, runModelCalls, teamEdgeSpend, teamModelSpend, type Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { queryableOf } from '@looplane/db';

const DAY_MS = 86_400_000;

/** Spend of one agent, endpoint or graph edge: per day of the window, and in total. */
export interface SpendSeries {
  id: string;
  name: string;
  costMicros: number[];
  tokens: number;
  totalCostMicros: number;
}

interface SpendRow {
  day: Date;
  key: string | null;
  name: string | null;
  costMicros: number;
  tokens: number;
}

const n = (value: bigint | number | null | undefined) => Number(value ?? 0);

function series(rows: SpendRow[], days: string[], fallback: string): SpendSeries[] {
  const byKey = new Map<string, SpendSeries>();
  for (const row of rows) {
    const id = row.key ?? '';
    const entry = byKey.get(id) ?? { id, name: row.name ?? fallback, costMicros: days.map(() => 0), tokens: 0, totalCostMicros: 0 };
    const index = days.indexOf(row.day.toISOString().slice(0, 10));
    if (index >= 0) entry.costMicros[index]! += row.costMicros;
    entry.tokens += row.tokens;
    entry.totalCostMicros += row.costMicros;
    byKey.set(id, entry);
  }
  return [...byKey.values()].sort((a, b) => b.totalCostMicros - a.totalCostMicros);
}

/**
 * The team's model spend over the last `days` days, by agent, by endpoint and by graph edge, from
 * the run logs (`model.responded` carries each call's cost) and the swarm's edge crossings; plus
 * the runs that spent most. Days are UTC.
 */
export async function teamSpend(db: Db, teamId: string, daysBack: number) {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const from = new Date(today - (daysBack - 1) * DAY_MS);
  const days = Array.from({ length: daysBack }, (_, i) => new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  const q = queryableOf(db);
  const calls = await teamModelSpend(q, teamId, from);
  const edges = await teamEdgeSpend(q, teamId, from);
  const topRuns = await db.run.findMany({
    where: { teamId, updatedAt: { gte: from }, spentCostMicros: { gt: 0 } },
    orderBy: { spentCostMicros: 'desc' },
    take: 20,
    select: { id: true, goal: true, status: true, spentCostMicros: true, spentTokens: true, createdAt: true, agent: { select: { name: true } } },
  });
  const byAgent = series(
    calls.map((r) => ({ ...r, key: r.agentId, name: r.agentName })),
    days,
    'no agent',
  );
  return {
    days,
    byAgent,
    byEndpoint: series(
      calls.map((r) => ({ ...r, key: r.endpointId, name: r.endpointName })),
      days,
      'no endpoint',
    ),
    byEdge: series(
      edges.map((r) => ({ ...r, key: r.edgeId })),
      days,
      'edge',
    ),
    totalCostMicros: byAgent.reduce((sum, s) => sum + s.totalCostMicros, 0),
    totalTokens: byAgent.reduce((sum, s) => sum + s.tokens, 0),
    topRuns: topRuns.map((r) => ({
      id: r.id,
      goal: r.goal,
      status: r.status,
      agent: r.agent?.name ?? null,
      costMicros: n(r.spentCostMicros),
      tokens: n(r.spentTokens),
      createdAt: r.createdAt,
    })),
  };
}

/** One run's spend: per model call (with its session and endpoint), per session, per endpoint, per graph edge. */
export async function runCost(db: Db, teamId: string, runId: string) {
  const run = await db.run.findFirst({
    where: { id: runId, teamId },
    select: { id: true, goal: true, status: true, spentCostMicros: true, spentTokens: true, toolCalls: true },
  });
  if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
  const q = queryableOf(db);
  const calls = await runModelCalls(q, runId);
  const edges = await runEdgeSpend(q, runId);
  const modelCalls = calls.map((c) => ({
    eventNo: c.eventNo,
    at: c.at,
    sessionId: c.sessionId,
    session: c.title,
    endpoint: c.endpointName ?? '—',
    costMicros: n(c.costMicros),
    inputTokens: n(c.inputTokens),
    outputTokens: n(c.outputTokens),
  }));
  const sum = (key: 'session' | 'endpoint') => {
    const totals = new Map<string, { name: string; costMicros: number; tokens: number; calls: number }>();
    for (const call of modelCalls) {
      const entry = totals.get(call[key]) ?? { name: call[key], costMicros: 0, tokens: 0, calls: 0 };
      entry.costMicros += call.costMicros;
      entry.tokens += call.inputTokens + call.outputTokens;
      entry.calls += 1;
      totals.set(call[key], entry);
    }
    return [...totals.values()].sort((a, b) => b.costMicros - a.costMicros);
  };
  return {
    run: { id: run.id, goal: run.goal, status: run.status, costMicros: n(run.spentCostMicros), tokens: n(run.spentTokens), toolCalls: run.toolCalls },
    modelCalls,
    bySession: sum('session'),
    byEndpoint: sum('endpoint'),
    byEdge: edges.map((e) => ({ edgeId: e.edgeId, name: e.name ?? e.edgeId, costMicros: e.costMicros, tokens: e.tokens })),
  };
}
