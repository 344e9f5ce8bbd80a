'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTeamActivity } from '@/components/live/team-activity';
import { useTeamScope } from '@/components/team-context';
import { InlineError } from '@/components/ui/inline-error';
import { formatDuration, formatCost } from '@/lib/run-format';
import { useNow } from '@/lib/use-now';
import { useTRPC } from '@/trpc/client';
import { BusiestCard, FailuresCard, WorkersCard } from './overview-lists';
import { StatTile, SubStat } from './stat-tile';

/** Activity-driven refetches happen at most this often (a burst of status changes is one read). */
const REFRESH_MS = 1000;
/** Also refetched this often: the 24-hour windows move and workers come and go without activity. */
const POLL_MS = 15_000;
const WAIT_LABELS = { approval: 'approval', budget: 'budget', child: 'child', message: 'message', isolation: 'isolation' } as const;

/**
 * Mission control: what runs, what is stuck and on what, what waits on a person, what it costs,
 * which workers carry it, what failed and what is busiest. Live over the team activity stream;
 * every number links to the filtered list behind it.
 */
export function OverviewPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const base = `/t/${team.slug}`;
  const overview = useQuery({ ...trpc.overview.get.queryOptions({ teamId: team.id }), refetchInterval: POLL_MS });
  const ticking = useNow(10_000) ?? 0;

  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useTeamActivity((activity) => {
    if (activity.kind === 'policy.shadow_disagreed' || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries(trpc.overview.get.queryFilter({ teamId: team.id }));
    }, REFRESH_MS);
  });

  const o = overview.data;
  if (!o)
    return (
      <div className="px-8 py-6">
        <InlineError error={overview.error} testId="overview-error" />
        {overview.isPending ? <p className="text-xs text-muted">Loading…</p> : null}
      </div>
    );
  const runs = (query: string) => `${base}/runs?${query}`;
  // The clock ticks between reads; the read's own time is never older than what it counted.
  const now = Math.max(ticking, o.at.getTime());
  const oldest = o.approvals.oldestRequestedAt ? now - o.approvals.oldestRequestedAt.getTime() : null;
  const spendRatio = o.spend.dailyAverageMicros > 0 ? o.spend.todayMicros / o.spend.dailyAverageMicros : null;

  return (
    <div className="flex max-w-6xl flex-col gap-6 px-8 py-6" data-testid="overview">
      <InlineError error={overview.error} testId="overview-error" />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <StatTile href={runs('status=running')} label="Running" value={o.runs.running} testId="overview-running">
          <div className="mt-2 flex flex-wrap gap-1.5">
            <SubStat href={runs('status=queued')} label="queued" value={o.runs.queued} testId="overview-queued" />
          </div>
        </StatTile>
        <StatTile
          href={runs('status=waiting')}
          label="Waiting"
          value={o.runs.waiting}
          note="on an approval, the budget, a child run or a message"
          tone={o.runs.waiting > 0 ? 'warning' : 'neutral'}
          testId="overview-waiting"
        >
          <div className="mt-2 flex flex-wrap gap-1.5">
            {(Object.keys(WAIT_LABELS) as Array<keyof typeof WAIT_LABELS>).map((reason) => (
              <SubStat
                key={reason}
                href={runs(`status=waiting&wait=${reason}`)}
                label={WAIT_LABELS[reason]}
                value={o.runs.waitingBy[reason]}
                testId={`overview-waiting-${reason}`}
              />
            ))}
          </div>
        </StatTile>
        <StatTile
          href={runs('status=failed&since=24h')}
          label="Failed in the last 24 h"
          value={o.runs.failed24h}
          tone={o.runs.failed24h > 0 ? 'danger' : 'neutral'}
          testId="overview-failed"
        >
          <div className="mt-2 flex flex-wrap gap-1.5">
            <SubStat href={runs('status=succeeded&since=24h')} label="succeeded" value={o.runs.succeeded24h} testId="overview-succeeded" />
          </div>
        </StatTile>
        <StatTile
          href={o.approvals.oldestId ? `${base}/approvals?approval=${o.approvals.oldestId}` : `${base}/approvals`}
          label="Waiting on you: approvals"
          value={o.approvals.pending}
          note={oldest !== null ? `the oldest waiting ${formatDuration(oldest)}` : 'none pending'}
          tone={o.approvals.pending > 0 ? 'warning' : 'neutral'}
          testId="overview-approvals"
        />
        <StatTile
          // The comparison is with the last 7 days: the costs page opens on them.
          href={`${base}/costs?days=7`}
          label="Spend today"
          value={formatCost(o.spend.todayMicros)}
          note={
            spendRatio === null
              ? 'no spend in the last 7 days'
              : `${spendRatio.toFixed(1)}× the daily average of the last 7 days (${formatCost(o.spend.dailyAverageMicros)})`
          }
          testId="overview-spend"
        />
        <StatTile
          href={runs('status=active')}
          label="Active runs"
          value={o.runs.queued + o.runs.running + o.runs.waiting + o.runs.paused}
          testId="overview-active"
        >
          <div className="mt-2 flex flex-wrap gap-1.5">
            <SubStat href={runs('status=paused')} label="paused" value={o.runs.paused} testId="overview-paused" />
          </div>
        </StatTile>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <FailuresCard failures={o.failures} base={base} now={now} />
        <WorkersCard workers={o.workers} />
        <BusiestCard title="Busiest agents" items={o.busiestAgents} href={(id) => runs(`agent=${id}&status=active`)} testId="overview-agents" />
        <BusiestCard title="Busiest graphs" items={o.busiestGraphs} href={(id) => runs(`graph=${id}&status=active`)} testId="overview-graphs" />
      </div>
    </div>
  );
}
