'use client';

import { useQuery } from '@tanstack/react-query';
import { useTeamScope } from '@/components/team-context';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { AgentForm } from './agent-form';

/** Loads the template, then shows the form (its fields keep what was typed; the version follows the saved one). */
export function AgentEditor({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const { team } = useTeamScope();
  const agent = useQuery(trpc.agents.get.queryOptions({ teamId: team.id, agentId }));
  if (agent.error) return <InlineError error={agent.error} testId="agent-load-error" />;
  if (!agent.data) return <p className="text-muted">Loading…</p>;
  return <AgentForm agent={agent.data} />;
}
