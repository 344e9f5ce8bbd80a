import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RunDetail } from '@/components/runs/run-detail';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Run' };

/** A run of the team in the URL; another team's run (or none, or a malformed id) is a 404. */
export default async function RunPage(props: { params: Promise<{ team: string; runId: string }> }) {
  const { team: slug, runId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  try {
    await caller.runs.get({ teamId: team.id, runId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
    throw error;
  }
  return <RunDetail runId={runId} />;
}
