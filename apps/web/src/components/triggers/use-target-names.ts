'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/trpc/client';

/** Names of the team's agents and graphs by id, for showing what a trigger starts ("…" while loading, the id if gone). */
export function useTargetNames(teamId: string): (kind: 'agent' | 'graph', id: string) => string {
  const trpc = useTRPC();
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId }));
  const graphs = useQuery(trpc.graphs.list.queryOptions({ teamId }));
  return (kind, id) => {
    const list = kind === 'agent' ? agents.data : graphs.data;
    if (!list) return '…';
    return list.find((item) => item.id === id)?.name ?? id;
  };
}
