import { approvalDecisionTotals, type Db } from '@looplane/db';
import { Counter, Gauge, Summary, type Registry } from 'prom-client';

/** Where cluster-wide numbers come from: Postgres (the source of truth) and the queue. */
export interface ClusterMetricsSource {
  db: Db;
  /** Job counts of the sessions queue by state (BullMQ `getJobCounts`); absent: no queue gauge. */
  queueCounts?: () => Promise<Record<string, number>>;
}

const ACTIVE_STATUSES = ['queued', 'running', 'waiting', 'paused'] as const;

/**
 * Registers gauges and counters computed at scrape time from Postgres. Reading the database
 * instead of counting in memory keeps every web and worker instance consistent: a scrape of any
 * one of them shows the cluster (aggregate with max(), not sum(), across instances).
 */
export function registerClusterMetrics(registry: Registry, source: ClusterMetricsSource): void {
  const { db } = source;
  const registers = [registry];

  if (source.queueCounts) {
    const queueCounts = source.queueCounts;
    new Gauge({
      name: 'looplane_queue_depth',
      help: 'Jobs in the sessions queue by state',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await queueCounts();
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
  }

  new Gauge({
    name: 'looplane_runs',
    help: 'Runs that have not finished, by status',
    labelNames: ['status'],
    registers,
    async collect() {
      const rows = await db.run.groupBy({ by: ['status'], where: { status: { in: [...ACTIVE_STATUSES] } }, _count: { _all: true } });
      for (const status of ACTIVE_STATUSES) this.set({ status }, rows.find((r) => r.status === status)?._count._all ?? 0);
    },
  });

  new Gauge({
    name: 'looplane_runs_waiting',
    help: 'Runs waiting on a human (approval, budget) or a message',
    registers,
    async collect() {
      this.set(await db.run.count({ where: { status: 'waiting' } }));
    },
  });

  new Gauge({
    name: 'looplane_active_loops',
    help: 'Sessions with a live lease: agent loops running on some worker',
    registers,
    async collect() {
      this.set(await db.session.count({ where: { leaseOwner: { not: null }, leaseExpiresAt: { gt: new Date() } } }));
    },
  });

  new Counter({
    name: 'looplane_events_total',
    help: 'Events appended since the database was created (rate() gives events per second)',
    registers,
    async collect() {
      // The event id is a sequence: its maximum counts appends (gaps only from rolled-back writes).
      const max = await db.event.aggregate({ _max: { id: true } });
      this.reset();
      this.inc(Number(max._max.id ?? 0n));
    },
  });

  new Gauge({
    name: 'looplane_approvals_pending',
    help: 'Approvals waiting for a decision, by team',
    labelNames: ['team'],
    registers,
    async collect() {
      this.reset();
      const rows = await db.approval.groupBy({ by: ['teamId'], where: { status: 'pending' }, _count: { _all: true } });
      for (const row of rows) this.set({ team: row.teamId }, row._count._all);
    },
  });

  registerDecisionLatency(registry, db);
  registerSpend(registry, db);
}

function registerDecisionLatency(registry: Registry, db: Db): void {
  // A summary without quantiles: _sum / _count give the mean decision time, rate() the recent one.
  const summary = new Summary({
    name: 'looplane_approval_decision_seconds',
    help: 'Time from an approval request to its decision',
    percentiles: [],
    registers: [registry],
  });
  // prom-client summaries aggregate observations; the database already did, so report its totals.
  const original = summary.get.bind(summary);
  summary.get = async () => {
    const metric = await original();
    const { count, sum } = await approvalDecisionTotals(db);
    return {
      ...metric,
      values: [
        { labels: {}, value: sum, metricName: 'looplane_approval_decision_seconds_sum' },
        { labels: {}, value: count, metricName: 'looplane_approval_decision_seconds_count' },
      ],
    };
  };
}

function registerSpend(registry: Registry, db: Db): void {
  const registers = [registry];
  new Counter({
    name: 'looplane_spend_micros_total',
    help: 'Model spend in micro-dollars, by team',
    labelNames: ['team'],
    registers,
    async collect() {
      this.reset();
      const rows = await db.run.groupBy({ by: ['teamId'], _sum: { spentCostMicros: true } });
      for (const row of rows) this.inc({ team: row.teamId }, Number(row._sum.spentCostMicros ?? 0n));
    },
  });
  new Counter({
    name: 'looplane_spend_tokens_total',
    help: 'Model tokens spent, by team',
    labelNames: ['team'],
    registers,
    async collect() {
      this.reset();
      const rows = await db.run.groupBy({ by: ['teamId'], _sum: { spentTokens: true } });
      for (const row of rows) this.inc({ team: row.teamId }, Number(row._sum.spentTokens ?? 0n));
    },
  });
  new Counter({
    name: 'looplane_endpoint_spend_micros_total',
    help: 'Model spend in micro-dollars, by model endpoint',
    labelNames: ['endpoint'],
    registers,
    async collect() {
      this.reset();
      const rows = await db.session.groupBy({ by: ['endpointId'], where: { endpointId: { not: null } }, _sum: { costMicros: true } });
      for (const row of rows) this.inc({ endpoint: row.endpointId ?? '' }, Number(row._sum.costMicros ?? 0n));
    },
  });
}
