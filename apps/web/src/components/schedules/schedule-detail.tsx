'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { scheduleState, timingText } from '@/lib/schedule-format';
import { useNow } from '@/lib/use-now';
import { useTRPC } from '@/trpc/client';
import { NextFire } from './next-fire';
import { ScheduleActions } from './schedule-actions';
import { ScheduleForm } from './schedule-form';
import { ScheduleTicks } from './schedule-ticks';

const POLL_MS = 5000;
const OVERLAP_TEXT = { skip: 'skip the tick', queue: 'start another run anyway', cancel_previous: 'cancel the last run' } as const;

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="text-[13px]" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** One schedule: its settings and next tick, its actions, and its latest ticks (runs, skips, failures) with links to the runs. */
export function ScheduleDetail({ scheduleId }: { scheduleId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { team, role } = useTeamScope();
  const base = `/t/${team.slug}`;
  const canEdit = roleAtLeast(role, 'operator');
  const schedule = useQuery({ ...trpc.schedules.get.queryOptions({ teamId: team.id, scheduleId, ticks: 100 }), refetchInterval: POLL_MS });
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const graphs = useQuery(trpc.graphs.list.queryOptions({ teamId: team.id }));
  const [editing, setEditing] = useState(false);
  const now = useNow(1000);
  const data = schedule.data;
  const state = data ? scheduleState(data) : null;
  const target = data?.graphId ? graphs.data?.find((g) => g.id === data.graphId) : agents.data?.find((a) => a.id === data?.agentId);

  return (
    <div className="flex flex-col gap-6">
      <Link href={`${base}/schedules`} className="inline-flex items-center gap-1.5 text-xs text-muted hover:text-foreground" data-testid="schedule-back">
        <ArrowLeft className="size-3.5" aria-hidden />
        All schedules
      </Link>
      <InlineError error={schedule.error} testId="schedule-load-error" />
      {data && editing ? (
        <Card>
          <CardHeader title={`Edit ${data.name}`} description="A changed timing starts from the next tick after now." />
          <ScheduleForm schedule={data} onDone={() => setEditing(false)} />
        </Card>
      ) : null}
      {data && state ? (
        <Card>
          <CardHeader
            title={
              <span className="flex flex-wrap items-center gap-2">
                <span data-testid="schedule-title">{data.name}</span>
                <Badge tone={state.tone} data-testid="schedule-state">
                  {state.label}
                </Badge>
              </span>
            }
            description={state.reason ? <span data-testid="schedule-reason">{state.reason}</span> : undefined}
            actions={
              canEdit ? (
                <ScheduleActions
                  teamId={team.id}
                  base={base}
                  schedule={data}
                  {...(editing ? {} : { onEdit: () => setEditing(true) })}
                  onDeleted={() => router.push(`${base}/schedules`)}
                />
              ) : null
            }
          />
          <dl className="grid gap-4 p-4 sm:grid-cols-3">
            <Fact label={data.graphId ? 'Graph' : 'Agent'}>
              <span className="font-mono">{target?.name ?? '…'}</span>
            </Fact>
            <Fact label="When" testId="schedule-timing-text">
              <span className="font-mono">{timingText(data)}</span>
            </Fact>
            <Fact label="Next tick">
              <NextFire at={data.nextFireAt} timezone={data.timezone} now={now} />
            </Fact>
            <Fact label="Goal">
              <span className="whitespace-pre-wrap">{data.goal}</span>
            </Fact>
            <Fact label="Overlap and catch-up">
              {OVERLAP_TEXT[data.overlap]}; missed ticks: {data.catchUp === 'latest' ? 'run the latest' : 'none'}
            </Fact>
            <Fact label="Failures" testId="schedule-failures">
              {data.consecutiveFailures} in a row; pauses after {data.pauseAfterFailures}
            </Fact>
          </dl>
        </Card>
      ) : null}
      <Card>
        <CardHeader title="Ticks" description="The latest 100: the runs it started, the ticks it skipped and the ones that failed, newest first." />
        <ScheduleTicks ticks={data?.ticks ?? []} timezone={data?.timezone ?? 'UTC'} base={base} loading={schedule.isPending} />
      </Card>
    </div>
  );
}
