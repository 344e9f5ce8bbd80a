'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { createFields, draftOf, type ScheduleDraft, updateFields } from '@/lib/schedule-draft';
import { useTRPC } from '@/trpc/client';
import { ScheduleTargetField } from './schedule-target-field';
import { ScheduleTimingFields } from './schedule-timing-fields';

type Schedule = RouterOutputs['schedules']['list'][number];

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const NEW_DRAFT = (): ScheduleDraft => ({
  name: '',
  target: 'agent',
  agentId: '',
  graphId: '',
  timing: 'cron',
  cron: '',
  everySeconds: '',
  timezone: browserZone(),
  goal: '',
  overlap: 'skip',
  catchUp: 'latest',
  pauseAfterFailures: '5',
  enabled: true,
});

/**
 * Create a schedule, or edit one (`schedule`): what it runs, when, with which goal, and what a
 * tick does while the last run is unfinished or after an outage. Pausing and resuming are actions
 * of their own, not fields here. The server checks everything (the cron, the zone, the agent) and
 * its messages are shown as they come; nothing is saved when it refuses.
 */
export function ScheduleForm(props: { schedule?: Schedule; onCreated?: (scheduleId: string) => void; onDone: () => void }) {
  const { schedule } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const graphs = useQuery(trpc.graphs.list.queryOptions({ teamId: team.id }));
  const [draft, setDraft] = useState<ScheduleDraft>(() => (schedule ? draftOf(schedule) : NEW_DRAFT()));
  const set = (patch: Partial<ScheduleDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const refresh = () => queryClient.invalidateQueries(trpc.schedules.pathFilter());
  const create = useMutation(trpc.schedules.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.schedules.update.mutationOptions({ onSuccess: refresh }));
  const pending = create.isPending || update.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (schedule) {
      update.mutate({ teamId: team.id, scheduleId: schedule.id, ...updateFields(draft, schedule) }, { onSuccess: props.onDone });
    } else {
      create.mutate(
        { teamId: team.id, ...createFields(draft) },
        {
          onSuccess: (created) => (props.onCreated ? props.onCreated(created.id) : props.onDone()),
        },
      );
    }
  }

  const id = schedule ? `schedule-edit-${schedule.id}` : 'schedule-create';
  return (
    // noValidate: the server's messages say what is wrong, the same as for any API client.
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 p-4" data-testid="schedule-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" htmlFor={`${id}-name`} hint="Unique in the team">
          <Input
            id={`${id}-name`}
            value={draft.name}
            onChange={(event) => set({ name: event.target.value })}
            maxLength={100}
            autoComplete="off"
            data-testid="schedule-name"
          />
        </Field>
        <ScheduleTargetField id={id} draft={draft} set={set} agents={agents.data ?? []} graphs={graphs.data ?? []} />
      </div>
      <ScheduleTimingFields draft={draft} set={set} />
      <Field label="Goal" htmlFor={`${id}-goal`} hint="Each run's goal; {{scheduledAt}} becomes the tick's time (ISO 8601, UTC).">
        <Textarea
          id={`${id}-goal`}
          value={draft.goal}
          onChange={(event) => set({ goal: event.target.value })}
          rows={3}
          maxLength={20_000}
          placeholder="Summarise the purchasing inbox as of {{scheduledAt}}"
          data-testid="schedule-goal"
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="While the last run is unfinished" htmlFor={`${id}-overlap`}>
          <Select
            id={`${id}-overlap`}
            value={draft.overlap}
            onChange={(event) => set({ overlap: event.target.value as ScheduleDraft['overlap'] })}
            data-testid="schedule-overlap"
          >
            <option value="skip">Skip the tick</option>
            <option value="queue">Start another run anyway</option>
            <option value="cancel_previous">Cancel the last run, start a new one</option>
          </Select>
        </Field>
        <Field label="Ticks missed while no worker ran" htmlFor={`${id}-catch-up`}>
          <Select
            id={`${id}-catch-up`}
            value={draft.catchUp}
            onChange={(event) => set({ catchUp: event.target.value as ScheduleDraft['catchUp'] })}
            data-testid="schedule-catch-up"
          >
            <option value="latest">Run the latest one</option>
            <option value="none">Run none of them</option>
          </Select>
        </Field>
        <Field label="Pause after failed runs in a row" htmlFor={`${id}-pause-after`} hint="Then it pauses itself and sends schedule.paused">
          <Input
            id={`${id}-pause-after`}
            type="number"
            min={1}
            max={1000}
            value={draft.pauseAfterFailures}
            onChange={(event) => set({ pauseAfterFailures: event.target.value })}
            data-testid="schedule-pause-after"
          />
        </Field>
      </div>
      {schedule ? null : (
        <label className="flex items-center gap-2 text-[13px]">
          <input type="checkbox" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} data-testid="schedule-enabled" />
          Enabled: start firing from the next tick (otherwise it is created paused)
        </label>
      )}
      <InlineError error={create.error ?? update.error} testId="schedule-form-error" />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={pending} data-testid="schedule-save">
          {schedule ? <Save className="size-3.5" aria-hidden /> : <CalendarClock className="size-3.5" aria-hidden />}
          {schedule ? (pending ? 'Saving…' : 'Save changes') : pending ? 'Creating…' : 'Create schedule'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={props.onDone} data-testid="schedule-cancel">
          Cancel
        </Button>
      </div>
    </form>
  );
}
