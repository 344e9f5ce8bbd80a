import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/page-header';
import { ScheduleDetail } from '@/components/schedules/schedule-detail';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Schedule' };

/** One schedule and its ticks: another team's (or none, or a malformed id) is a 404. */
export default async function SchedulePage(props: { params: Promise<{ team: string; scheduleId: string }> }) {
  const { team: slug, scheduleId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  try {
    await caller.schedules.get({ teamId: team.id, scheduleId, ticks: 1 });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
    throw error;
  }
  return (
    <>
      <PageHeader title="Schedule" />
      <div className="max-w-7xl px-8 py-6">
        <ScheduleDetail scheduleId={scheduleId} />
      </div>
    </>
  );
}
