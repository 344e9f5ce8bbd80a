import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/page-header';
import { TriggerDetail } from '@/components/triggers/trigger-detail';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Trigger' };

/** One trigger and its deliveries: another team's (or none, or a malformed id) is a 404. */
export default async function TriggerPage(props: { params: Promise<{ team: string; triggerId: string }> }) {
  const { team: slug, triggerId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  try {
    await caller.triggers.get({ teamId: team.id, triggerId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
    throw error;
  }
  return (
    <>
      <PageHeader title="Trigger" />
      <div className="max-w-7xl px-8 py-6">
        <TriggerDetail triggerId={triggerId} />
      </div>
    </>
  );
}
