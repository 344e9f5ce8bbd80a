'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Th } from '@/components/ui/table';
import { useNow } from '@/lib/use-now';
import { useTRPC } from '@/trpc/client';
import { ScheduleForm } from './schedule-form';
import { ScheduleRow } from './schedule-row';

const COLUMNS = 5;
/** The workers move next fire times and pause schedules without the page asking: it polls. */
const POLL_MS = 5000;

/**
 * The team's schedules: each one's timing, next tick (in its zone and the viewer's), state and
 * last tick, with pause/resume, run now, edit and delete for operators; a schedule's runs and
 * failures are on its own page.
 */
export function SchedulesPanel() {
  const trpc = useTRPC();
  const router = useRouter();
  const { team, role } = useTeamScope();
  const base = `/t/${team.slug}`;
  const canEdit = roleAtLeast(role, 'operator');
  const schedules = useQuery({ ...trpc.schedules.list.queryOptions({ teamId: team.id }), refetchInterval: POLL_MS });
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const graphs = useQuery(trpc.graphs.list.queryOptions({ teamId: team.id }));
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const now = useNow(1000);
  const edited = schedules.data?.find((s) => s.id === editing);
  const nameOf = (schedule: { agentId: string | null; graphId: string | null }) =>
    (schedule.graphId ? graphs.data?.find((g) => g.id === schedule.graphId)?.name : agents.data?.find((a) => a.id === schedule.agentId)?.name) ?? '…';

  return (
    <div className="flex flex-col gap-6">
      {editing !== null && (editing === 'new' || edited) ? (
        <Card>
          <CardHeader
            title={edited ? `Edit ${edited.name}` : 'New schedule'}
            description="Each tick starts one run, exactly once however many workers run; a changed timing starts from the next tick after now."
          />
          <ScheduleForm
            key={editing}
            {...(edited ? { schedule: edited } : {})}
            onCreated={(scheduleId) => router.push(`${base}/schedules/${scheduleId}`)}
            onDone={() => setEditing(null)}
          />
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Schedules"
          description="Runs started on a cron or an interval, with no one at the keyboard."
          actions={
            canEdit && editing === null ? (
              <Button variant="primary" size="sm" onClick={() => setEditing('new')} data-testid="schedule-new">
                <Plus className="size-3.5" aria-hidden />
                New schedule
              </Button>
            ) : null
          }
        />
        <InlineError error={schedules.error} testId="schedules-load-error" className="m-4" />
        <Table>
          <thead>
            <tr>
              <Th>Schedule</Th>
              <Th>Next tick</Th>
              <Th>State</Th>
              <Th>Last tick</Th>
              <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody data-testid="schedules-table">
            {schedules.isPending ? <TableMessage colSpan={COLUMNS}>Loading schedules…</TableMessage> : null}
            {schedules.data?.length === 0 ? <TableMessage colSpan={COLUMNS}>No schedules yet.</TableMessage> : null}
            {schedules.data?.map((schedule) => (
              <ScheduleRow
                key={schedule.id}
                teamId={team.id}
                base={base}
                schedule={schedule}
                targetName={nameOf(schedule)}
                canEdit={canEdit}
                now={now}
                onEdit={() => setEditing(schedule.id)}
              />
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
