import { Prisma, type Db } from '@looplane/db';
import { LIVE_WORKER_WINDOW_MS } from './live-workers';

const DAY_MS = 86_400_000;
const WAIT_REASONS = ['approval', 'budget', 'child', 'message'] as const;
type WaitReason = (typeof WAIT_REASONS)[number];

const n = (value: bigint | number | null | undefined) => Number(value ?? 0);

interface OverviewWorker {
  workerId: string;
  hostname: string;
  /** Running sessions it holds the lease of now (every team's: workers are shared). */
  activeLoops: number;
  /** Loops it runs at once; null for a worker that did not report it. */
  concurrency: number | null;
  driver: string;
  /** Whether its sandbox driver works; when not, `reason` says why and its tool calls fail. */
  healthy: boolean;
  reason: string | null;
  lastSeenAt: Date;
}

interface OverviewFailure {
  runId: string;
  goal: string;
  error: string | null;
  agent: string | null;
  graph: string | null;
  finishedAt: Date | null;
}

interface OverviewBusy {
  id: string;
  name: string;
  /** Runs now queued, running or waiting. */
  active: number;
  /** Runs created in the last 24 hours. */
  runs24h: number;
  /** Model spend of the last 24 hours. */
  costMicros24h: number;
}

export interface TeamOverview {
  at: Date;
  runs: {
    queued: number;
    running: number;
    waiting: number;
    waitingBy: Record<WaitReason, number>;
    paused: number;
    failed24h: number;
    succeeded24h: number;
  };
  approvals: { pending: number; oldestRequestedAt: Date | null; oldestId: string | null };
  spend: {
    todayMicros: number;
    /** The seven whole UTC days before today, oldest first. */
    last7DaysMicros: number[];
    /** Their average per day: what today compares with. */
    dailyAverageMicros: number;
  };
  workers: OverviewWorker[];
  failures: OverviewFailure[];
  busiestAgents: OverviewBusy[];
  busiestGraphs: OverviewBusy[];
}

interface StatusRow {
  status: string;
  waitReason: string | null;
  count: bigint;
}

interface BusyRow {
  id: string;
  name: string | null;
  active: bigint;
  runs24h: bigint;
}

/**
 * What a supervisor opens the product for: what runs, what is stuck (waiting, by reason), what
 * waits on a person, what failed lately and why, what it costs today against the week, which
 * workers carry it, and which agents and graphs are busiest. Each figure is a count the runs
 * list, the inbox or the costs page can filter to. Read in a handful of index-backed queries.
 */
export async function teamOverview(db: Db, teamId: string, now = new Date()): Promise<TeamOverview> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const weekStart = new Date(today.getTime() - 7 * DAY_MS);
  const [statuses, recent, approvals, oldest, spend, workers, failures, agents, graphs] = await Promise.all([
    db.$queryRaw<StatusRow[]>`
      SELECT status::text AS status, "waitReason"::text AS "waitReason", count(*) AS count FROM "Run"
      WHERE "teamId" = ${teamId} AND status IN ('queued', 'running', 'waiting', 'paused')
      GROUP BY 1, 2`,
    db.$queryRaw<Array<{ status: string; count: bigint }>>`
      SELECT status::text AS status, count(*) AS count FROM "Run"
      WHERE "teamId" = ${teamId} AND status IN ('failed', 'succeeded') AND "finishedAt" >= ${dayAgo}
      GROUP BY 1`,
    db.approval.count({ where: { teamId, status: 'pending' } }),
    db.approval.findFirst({ where: { teamId, status: 'pending' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, createdAt: true } }),
    // Model spend per UTC day from the run logs, as the Costs page counts it.
    db.$queryRaw<Array<{ day: Date; cost: bigint | null }>>`
      SELECT date_trunc('day', e."createdAt") AS day, sum(COALESCE((e.payload->>'costMicros')::bigint, 0)) AS cost
      FROM "Run" r JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${weekStart}
      WHERE r."teamId" = ${teamId} AND r."updatedAt" >= ${weekStart}
      GROUP BY 1`,
    liveWorkers(db, now),
    db.run.findMany({
      where: { teamId, status: 'failed' },
      orderBy: [{ finishedAt: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
      take: 5,
      select: { id: true, goal: true, error: true, finishedAt: true, agent: { select: { name: true } }, graph: { select: { name: true } } },
    }),
    busiest(db, teamId, 'agent', dayAgo),
    busiest(db, teamId, 'graph', dayAgo),
  ]);

  const waitingBy = Object.fromEntries(WAIT_REASONS.map((r) => [r, 0])) as Record<WaitReason, number>;
  const runs = { queued: 0, running: 0, waiting: 0, waitingBy, paused: 0, failed24h: 0, succeeded24h: 0 };
  for (const row of statuses) {
    const count = n(row.count);
    if (row.status === 'queued' || row.status === 'running' || row.status === 'paused') runs[row.status] += count;
    if (row.status === 'waiting') {
      runs.waiting += count;
      if (row.waitReason && (WAIT_REASONS as readonly string[]).includes(row.waitReason)) waitingBy[row.waitReason as WaitReason] += count;
    }
  }
  for (const row of recent) {
    if (row.status === 'failed') runs.failed24h = n(row.count);
    if (row.status === 'succeeded') runs.succeeded24h = n(row.count);
  }

  const perDay = new Map(spend.map((row) => [row.day.toISOString().slice(0, 10), n(row.cost)]));
  const last7DaysMicros = Array.from({ length: 7 }, (_, i) => perDay.get(new Date(weekStart.getTime() + i * DAY_MS).toISOString().slice(0, 10)) ?? 0);
  const todayMicros = perDay.get(today.toISOString().slice(0, 10)) ?? 0;

  return {
    at: now,
    runs,
    approvals: { pending: approvals, oldestRequestedAt: oldest?.createdAt ?? null, oldestId: oldest?.id ?? null },
    spend: { todayMicros, last7DaysMicros, dailyAverageMicros: Math.round(last7DaysMicros.reduce((a, b) => a + b, 0) / 7) },
    workers,
    failures: failures.map((r) => ({
      runId: r.id,
      goal: r.goal.slice(0, 300),
      error: r.error ? r.error.slice(0, 500) : null,
      agent: r.agent?.name ?? null,
      graph: r.graph?.name ?? null,
      finishedAt: r.finishedAt,
    })),
    busiestAgents: agents,
    busiestGraphs: graphs,
  };
}

/** Live workers (the probe row refreshed within the window, not stopped) with the running sessions each holds. */
async function liveWorkers(db: Db, now: Date): Promise<OverviewWorker[]> {
  const rows = await db.$queryRaw<
    Array<{
      workerId: string;
      hostname: string;
      concurrency: number | null;
      selectedDriver: string;
      available: boolean;
      reason: string | null;
      lastSeenAt: Date;
      active: bigint;
    }>
  >`
    SELECT w."workerId", w.hostname, w.concurrency, w."selectedDriver", w.available, w.reason, w."lastSeenAt",
      (SELECT count(*) FROM "Session" s WHERE s.status = 'running' AND s."leaseExpiresAt" > ${now} AND s."leaseOwner" = w."workerId") AS active
    FROM "WorkerSandboxProbe" w
    WHERE w."stoppedAt" IS NULL AND w."lastSeenAt" > ${new Date(now.getTime() - LIVE_WORKER_WINDOW_MS)}
    ORDER BY w.hostname, w."workerId"
    LIMIT 100`;
  return rows.map((w) => ({
    workerId: w.workerId,
    hostname: w.hostname,
    activeLoops: n(w.active),
    concurrency: w.concurrency,
    driver: w.selectedDriver,
    healthy: w.available,
    reason: w.reason,
    lastSeenAt: w.lastSeenAt,
  }));
}

/** The five agents (or graphs) with the most active runs, then the most runs in the last day, with their spend of the day. */
async function busiest(db: Db, teamId: string, by: 'agent' | 'graph', since: Date): Promise<OverviewBusy[]> {
  const rows =
    by === 'agent'
      ? await db.$queryRaw<BusyRow[]>`
          SELECT r."agentId" AS id, a.name,
            count(*) FILTER (WHERE r.status IN ('queued', 'running', 'waiting', 'paused')) AS active,
            count(*) FILTER (WHERE r."createdAt" >= ${since}) AS "runs24h"
          FROM "Run" r JOIN "AgentTemplate" a ON a.id = r."agentId"
          WHERE r."teamId" = ${teamId} AND r."graphId" IS NULL AND (r.status IN ('queued', 'running', 'waiting', 'paused') OR r."createdAt" >= ${since})
          GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC, 2 LIMIT 5`
      : await db.$queryRaw<BusyRow[]>`
          SELECT r."graphId" AS id, g.name,
            count(*) FILTER (WHERE r.status IN ('queued', 'running', 'waiting', 'paused')) AS active,
            count(*) FILTER (WHERE r."createdAt" >= ${since}) AS "runs24h"
          FROM "Run" r JOIN "SwarmGraph" g ON g.id = r."graphId"
          WHERE r."teamId" = ${teamId} AND (r.status IN ('queued', 'running', 'waiting', 'paused') OR r."createdAt" >= ${since})
          GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC, 2 LIMIT 5`;
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // Model spend of the day, from the run logs as the Costs page counts it.
  const spend =
    by === 'agent'
      ? await db.$queryRaw<Array<{ id: string; cost: bigint | null }>>`
          SELECT r."agentId" AS id, sum(COALESCE((e.payload->>'costMicros')::bigint, 0)) AS cost
          FROM "Run" r JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${since}
          WHERE r."teamId" = ${teamId} AND r."updatedAt" >= ${since} AND r."agentId" IN (${Prisma.join(ids)}) AND r."graphId" IS NULL
          GROUP BY 1`
      : await db.$queryRaw<Array<{ id: string; cost: bigint | null }>>`
          SELECT r."graphId" AS id, sum(COALESCE((e.payload->>'costMicros')::bigint, 0)) AS cost
          FROM "Run" r JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${since}
          WHERE r."teamId" = ${teamId} AND r."updatedAt" >= ${since} AND r."graphId" IN (${Prisma.join(ids)})
          GROUP BY 1`;
  const spent = new Map(spend.map((s) => [s.id, n(s.cost)]));
  return rows.map((r) => ({ id: r.id, name: r.name ?? '(deleted)', active: n(r.active), runs24h: n(r.runs24h), costMicros24h: spent.get(r.id) ?? 0 }));
}
