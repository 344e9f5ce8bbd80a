'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { scheduleState, tickTone, timingText } from '@/lib/schedule-format';
import { useTRPC } from '@/trpc/client';
import { NextFire } from './next-fire';
import { ScheduleActions } from './schedule-actions';

type Schedule = RouterOutputs['schedules']['list'][number];

const LAST_TICK_POLL_MS = 10_000;

/** One schedule: what it runs and when, its next tick, its state, its last tick, and its actions. */
export function ScheduleRow(props: {
  teamId: string;
  base: string;
  schedule: Schedule;
  targetName: string;
  canEdit: boolean;
  now: number | null;
  onEdit: () => void;
}) {
  const { schedule } = props;
  const trpc = useTRPC();
  // The list carries no ticks: each row asks for its latest one.
  const latest = useQuery({
    ...trpc.schedules.get.queryOptions({ teamId: props.teamId, scheduleId: schedule.id, ticks: 1 }),
    refetchInterval: LAST_TICK_POLL_MS,
  });
  const tick = latest.data?.ticks[0];
  const state = scheduleState(schedule);

  return (
    <Tr data-testid="schedule-row" data-schedule-id={schedule.id} data-schedule-name={schedule.name} data-state={state.kind}>
      <Td className="max-w-72 py-2">
        <Link href={`${props.base}/schedules/${schedule.id}`} className="font-medium hover:text-accent" data-testid="schedule-open">
          {schedule.name}
        </Link>
        <div className="mt-0.5 text-xs text-muted">
          {schedule.graphId ? 'graph' : 'agent'} <span className="font-mono text-foreground">{props.targetName}</span> ·{' '}
          <span className="font-mono" data-testid="schedule-row-timing">
            {timingText(schedule)}
          </span>
        </div>
      </Td>
      <Td className="py-2">
        <NextFire at={schedule.nextFireAt} timezone={schedule.timezone} now={props.now} />
      </Td>
      <Td className="max-w-56 py-2 text-xs">
        <Badge tone={state.tone} data-testid="schedule-row-state">
          {state.label}
        </Badge>
        {state.reason ? (
          <div className="mt-1 text-muted" data-testid="schedule-row-reason">
            {state.reason}
          </div>
        ) : null}
        {schedule.enabled && schedule.consecutiveFailures > 0 ? (
          <div className="mt-1 text-warning" data-testid="schedule-row-failures">
            {schedule.consecutiveFailures} of {schedule.pauseAfterFailures} failed in a row
          </div>
        ) : null}
      </Td>
      <Td className="py-2 text-xs whitespace-nowrap" data-testid="schedule-row-last">
        {tick ? (
          <span className="flex flex-col gap-0.5">
            <span className="flex items-center gap-1.5">
              <Badge tone={tickTone(tick.outcome, tick.runStatus)} data-testid="schedule-row-last-outcome">
                {tick.outcome === 'started' && tick.runStatus ? `run ${tick.runStatus}` : tick.outcome}
              </Badge>
              {tick.runId ? (
                <Link href={`${props.base}/runs/${tick.runId}`} className="text-accent hover:underline" data-testid="schedule-row-last-run">
                  run
                </Link>
              ) : null}
            </span>
            <span className="text-muted" title={formatDateTime(tick.scheduledAt)}>
              {tick.reason ? `${tick.reason} · ` : ''}
              {formatRelative(tick.scheduledAt, props.now ?? Date.now())}
            </span>
          </span>
        ) : (
          <span className="text-muted">{latest.isPending ? '…' : 'none yet'}</span>
        )}
      </Td>
      <Td className="py-2 text-right">
        {props.canEdit ? <ScheduleActions teamId={props.teamId} base={props.base} schedule={schedule} onEdit={props.onEdit} /> : null}
      </Td>
    </Tr>
  );
}
