import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/page-header';
import { RunCostPanel } from '@/components/costs/run-cost-panel';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Run cost' };

/** One run's cost breakdown; another team's run (or none, or a malformed id) is a 404. */
export default async function RunCostPage(props: { params: Promise<{ team: string; runId: string }> }) {
  const { team: slug, runId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  try {
    await caller.runs.get({ teamId: team.id, runId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
    throw error;
  }
  return (
    <>
      <PageHeader title="Run cost" description="Where this run's spend went: by session, endpoint and graph edge, and every model call." />
      <div className="max-w-7xl px-8 py-6">
        <RunCostPanel runId={runId} />
      </div>
    </>
  );
}
