import type { Db } from '@looplane/db';
import { AppError } from '@looplane/shared';

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
  cost: bigint | number | null;
  tokens: bigint | number | null;
}

const n = (value: bigint | number | null | undefined) => Number(value ?? 0);

function series(rows: SpendRow[], days: string[], fallback: string): SpendSeries[] {
  const byKey = new Map<string, SpendSeries>();
  for (const row of rows) {
    const id = row.key ?? '';
    const entry = byKey.get(id) ?? { id, name: row.name ?? fallback, costMicros: days.map(() => 0), tokens: 0, totalCostMicros: 0 };
    const index = days.indexOf(row.day.toISOString().slice(0, 10));
    if (index >= 0) entry.costMicros[index]! += n(row.cost);
    entry.tokens += n(row.tokens);
    entry.totalCostMicros += n(row.cost);
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
  // Runs that could have spent in the window: they were updated in it (a model call updates the run).
  // A call is the agent's that ran its session: a swarm node's session runs the node's agent, not
  // the run's (the root's).
  const calls = await db.$queryRaw<
    Array<SpendRow & { agentId: string | null; agentName: string | null; endpointId: string | null; endpointName: string | null }>
  >`
    SELECT date_trunc('day', e."createdAt") AS day,
      COALESCE(s."agentId", r."agentId") AS "agentId", a.name AS "agentName", s."endpointId" AS "endpointId", me.name AS "endpointName",
      sum(COALESCE((e.payload->>'costMicros')::bigint, 0)) AS cost,
      sum(COALESCE((e.payload->'usage'->>'inputTokens')::bigint, 0) + COALESCE((e.payload->'usage'->>'outputTokens')::bigint, 0)) AS tokens
    FROM "Run" r
    JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${from}
    JOIN "Session" s ON s.id = e."sessionId"
    LEFT JOIN "AgentTemplate" a ON a.id = COALESCE(s."agentId", r."agentId")
    LEFT JOIN "ModelEndpoint" me ON me.id = s."endpointId"
    WHERE r."teamId" = ${teamId} AND r."updatedAt" >= ${from}
    GROUP BY 1, 2, 3, 4, 5`;
  const edges = await db.$queryRaw<SpendRow[]>`
    SELECT date_trunc('day', c."createdAt") AS day, c."edgeId" AS key, ge."fromKey" || ' → ' || ge."toKey" AS name,
      sum(c."costMicros") AS cost, sum(c.tokens) AS tokens
    FROM "SwarmCrossing" c
    JOIN "Run" r ON r.id = c."runId"
    LEFT JOIN "GraphEdge" ge ON ge.id = c."edgeId"
    WHERE r."teamId" = ${teamId} AND c.direction = 'back' AND c."createdAt" >= ${from}
    GROUP BY 1, 2, 3`;
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
    byEdge: series(edges, days, 'edge'),
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
  const calls = await db.$queryRaw<
    Array<{
      eventNo: bigint;
      at: Date;
      sessionId: string;
      title: string;
      endpointName: string | null;
      cost: bigint | null;
      input: bigint | null;
      output: bigint | null;
    }>
  >`
    SELECT e."eventNo" AS "eventNo", e."createdAt" AS at, s.id AS "sessionId", s.title, me.name AS "endpointName",
      (e.payload->>'costMicros')::bigint AS cost, (e.payload->'usage'->>'inputTokens')::bigint AS input, (e.payload->'usage'->>'outputTokens')::bigint AS output
    FROM "Event" e JOIN "Session" s ON s.id = e."sessionId" LEFT JOIN "ModelEndpoint" me ON me.id = s."endpointId"
    WHERE e."runId" = ${runId} AND e.type = 'model.responded'
    ORDER BY e."eventNo" LIMIT 2000`;
  const edges = await db.$queryRaw<Array<{ edgeId: string; name: string | null; cost: bigint | null; tokens: bigint | null }>>`
    SELECT c."edgeId" AS "edgeId", ge."fromKey" || ' → ' || ge."toKey" AS name, sum(c."costMicros") AS cost, sum(c.tokens) AS tokens
    FROM "SwarmCrossing" c LEFT JOIN "GraphEdge" ge ON ge.id = c."edgeId"
    WHERE c."runId" = ${runId} AND c.direction = 'back' GROUP BY 1, 2`;
  const modelCalls = calls.map((c) => ({
    eventNo: n(c.eventNo),
    at: c.at,
    sessionId: c.sessionId,
    session: c.title,
    endpoint: c.endpointName ?? '—',
    costMicros: n(c.cost),
    inputTokens: n(c.input),
    outputTokens: n(c.output),
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
    byEdge: edges.map((e) => ({ edgeId: e.edgeId, name: e.name ?? e.edgeId, costMicros: n(e.cost), tokens: n(e.tokens) })),
  };
}
