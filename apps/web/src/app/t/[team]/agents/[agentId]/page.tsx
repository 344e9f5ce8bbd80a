import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AgentEditor } from '@/components/agents/agent-editor';
import { PageHeader } from '@/components/page-header';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Edit agent' };

export default async function AgentPage(props: { params: Promise<{ team: string; agentId: string }> }) {
  const { team: slug, agentId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  try {
    await caller.agents.get({ teamId: team.id, agentId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
    throw error;
  }
  return (
    <>
      <PageHeader title="Edit agent" />
      <div className="max-w-5xl px-8 py-6">
        <AgentEditor agentId={agentId} />
      </div>
    </>
  );
}
