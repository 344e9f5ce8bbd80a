'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pause, Play, Zap } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * Pause or resume, run now and delete (asked twice) for one schedule; the list row and the
 * detail page share them. "Run now" starts a run at once, whatever the timing or state, and
 * links it.
 */
export function ScheduleActions(props: {
  teamId: string;
  base: string;
  schedule: { id: string; enabled: boolean };
  onEdit?: () => void;
  onDeleted?: () => void;
}) {
  const { teamId, schedule } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries(trpc.schedules.pathFilter());
  const pause = useMutation(trpc.schedules.pause.mutationOptions({ onSettled: refresh }));
  const resume = useMutation(trpc.schedules.resume.mutationOptions({ onSettled: refresh }));
  const runNow = useMutation(trpc.schedules.runNow.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(
    trpc.schedules.delete.mutationOptions({
      onSuccess: () => props.onDeleted?.(),
      onSettled: () => {
        setConfirming(false);
        return refresh();
      },
    }),
  );
  const ref = { teamId, scheduleId: schedule.id };
  const toggling = pause.isPending || resume.isPending;

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-1">
        <Button
          size="sm"
          disabled={runNow.isPending}
          title="Start its run now, whatever the timing; the next tick stays as it is"
          onClick={() => runNow.mutate(ref)}
          data-testid="schedule-run-now"
        >
          <Zap aria-hidden className="size-3.5" /> Run now
        </Button>
        {schedule.enabled ? (
          <Button size="sm" variant="ghost" disabled={toggling} onClick={() => pause.mutate(ref)} data-testid="schedule-pause">
            <Pause aria-hidden className="size-3.5" /> Pause
          </Button>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            disabled={toggling}
            title="Starts from the next tick after now; missed ticks are not made up"
            onClick={() => resume.mutate(ref)}
            data-testid="schedule-resume"
          >
            <Play aria-hidden className="size-3.5" /> Resume
          </Button>
        )}
        {props.onEdit ? (
          <Button size="sm" variant="ghost" onClick={props.onEdit} data-testid="schedule-edit">
            Edit
          </Button>
        ) : null}
        {confirming ? (
          <>
            <Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(ref)} data-testid="schedule-delete-confirm">
              Delete it
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)} data-testid="schedule-delete-cancel">
              Cancel
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            variant="danger-ghost"
            title="Its runs stay; they are no longer linked to it"
            onClick={() => setConfirming(true)}
            data-testid="schedule-delete"
          >
            Delete
          </Button>
        )}
      </div>
      {runNow.data && !runNow.error ? (
        <Link href={`${props.base}/runs/${runNow.data.runId}`} className="text-xs text-accent hover:underline" data-testid="schedule-run-now-result">
          Run started: {runNow.data.runId}
        </Link>
      ) : null}
      <InlineError error={runNow.error ?? pause.error ?? resume.error ?? remove.error} testId="schedule-action-error" className="text-left text-xs" />
    </div>
  );
}
