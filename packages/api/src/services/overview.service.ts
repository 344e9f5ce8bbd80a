import {
  activeRunCounts,
  busiestRows,
  busySpend,
  dailyModelSpend,
  finishedRunCounts,
  liveWorkerRows,
  type BusyKind,
  type Db,
  type Queryable,
} from '@looplane/db';
import { LIVE_WORKER_WINDOW_MS } from './live-workers';
import { queryableOf } from '@looplane/db';

const DAY_MS = 86_400_000;
const WAIT_REASONS = ['approval', 'budget', 'child', 'message', 'isolation'] as const;
type WaitReason = (typeof WAIT_REASONS)[number];

interface OverviewWorker {
  workerId: string;
  hostname: string;
  /** Running sessions it holds the lease of now (every team's: workers are shared). */
  activeLoops: number;
  /** Loops it runs at once; null for a worker that did not report it. */
  concurrency: number | null;
  driver: string;
  /** The sandbox drivers it offers that work (its default and LOOPLANE_SANDBOX_DRIVERS): a call needing a stronger one than `driver` runs on one of them. */
  drivers: string[];
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
  const q = queryableOf(db);
  const [statuses, recent, approvals, oldest, spend, workers, failures, agents, graphs] = await Promise.all([
    activeRunCounts(q, teamId),
    finishedRunCounts(q, teamId, dayAgo),
    db.approval.count({ where: { teamId, status: 'pending' } }),
    db.approval.findFirst({ where: { teamId, status: 'pending' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, createdAt: true } }),
    // Model spend per UTC day from the run logs, as the Costs page counts it.
    dailyModelSpend(q, teamId, weekStart),
    liveWorkers(q, now),
    db.run.findMany({
      where: { teamId, status: 'failed' },
      orderBy: [{ finishedAt: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
      take: 5,
      select: { id: true, goal: true, error: true, finishedAt: true, agent: { select: { name: true } }, graph: { select: { name: true } } },
    }),
    busiest(q, teamId, 'agent', dayAgo),
    busiest(q, teamId, 'graph', dayAgo),
  ]);

  const waitingBy = Object.fromEntries(WAIT_REASONS.map((r) => [r, 0])) as Record<WaitReason, number>;
  const runs = { queued: 0, running: 0, waiting: 0, waitingBy, paused: 0, failed24h: 0, succeeded24h: 0 };
  for (const row of statuses) {
    const { count } = row;
    if (row.status === 'queued' || row.status === 'running' || row.status === 'paused') runs[row.status] += count;
    if (row.status === 'waiting') {
      runs.waiting += count;
      if (row.waitReason && (WAIT_REASONS as readonly string[]).includes(row.waitReason)) waitingBy[row.waitReason as WaitReason] += count;
    }
  }
  for (const row of recent) {
    if (row.status === 'failed') runs.failed24h = row.count;
    if (row.status === 'succeeded') runs.succeeded24h = row.count;
  }

  const perDay = new Map(spend.map((row) => [row.day.toISOString().slice(0, 10), row.costMicros]));
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
async function liveWorkers(db: Queryable, now: Date): Promise<OverviewWorker[]> {
  const rows = await liveWorkerRows(db, now, new Date(now.getTime() - LIVE_WORKER_WINDOW_MS));
  return rows.map((w) => ({
    workerId: w.workerId,
    hostname: w.hostname,
    activeLoops: w.active,
    concurrency: w.concurrency,
    driver: w.selectedDriver,
    drivers: w.drivers,
    healthy: w.available,
    reason: w.reason,
    lastSeenAt: w.lastSeenAt,
  }));
}

/** The five agents (or graphs) with the most active runs, then the most runs in the last day, with their spend of the day. */
async function busiest(db: Queryable, teamId: string, by: BusyKind, since: Date): Promise<OverviewBusy[]> {
  const rows = await busiestRows(db, teamId, by, since);
  if (rows.length === 0) return [];
  // Model spend of the day, from the run logs as the Costs page counts it.
  const spent = await busySpend(
    db,
    teamId,
    by,
    rows.map((r) => r.id),
    since,
  );
  return rows.map((r) => ({ id: r.id, name: r.name ?? '(deleted)', active: r.active, runs24h: r.runsSince, costMicros24h: spent.get(r.id) ?? 0 }));
}
