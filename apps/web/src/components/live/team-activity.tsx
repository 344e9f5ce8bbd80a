'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RunStatus } from '@/lib/run-format';

/** Messages of `/api/teams/{teamId}/activity`. `ready` means "refetch what you show". */
type TeamActivity =
  | { kind: 'ready' }
  | { kind: 'run.status'; runId: string; status: RunStatus; waitReason?: string | null }
  | { kind: 'approvals.count'; pending: number }
  | { kind: 'policy.shadow_disagreed'; runId: string; tool: string };

type Listener = (activity: TeamActivity) => void;

interface TeamActivityContextValue {
  subscribe(listener: Listener): () => void;
  connected: boolean;
  pendingApprovals: number | null;
}

const TeamActivityContext = createContext<TeamActivityContextValue | null>(null);

/**
 * One activity stream per tab, shared by every component of the team's pages through context:
 * `next start` speaks HTTP/1.1, where a browser allows ~6 connections per host, so pages must not
 * each open their own. EventSource reconnects by itself after a drop.
 */
export function TeamActivityProvider({ teamId, children }: { teamId: string; children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const [connected, setConnected] = useState(false);
  const [pendingApprovals, setPendingApprovals] = useState<number | null>(null);

  useEffect(() => {
    const source = new EventSource(`/api/teams/${encodeURIComponent(teamId)}/activity`);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.onmessage = (message: MessageEvent<string>) => {
      let activity: TeamActivity;
      try {
        activity = JSON.parse(message.data) as TeamActivity;
      } catch {
        return;
      }
      if (activity.kind === 'approvals.count') setPendingApprovals(activity.pending);
      for (const listener of listeners.current) listener(activity);
    };
    return () => source.close();
  }, [teamId]);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);
  const value = useMemo(() => ({ subscribe, connected, pendingApprovals }), [subscribe, connected, pendingApprovals]);
  return <TeamActivityContext.Provider value={value}>{children}</TeamActivityContext.Provider>;
}

function useTeamActivityContext(): TeamActivityContextValue {
  const value = useContext(TeamActivityContext);
  if (!value) throw new Error('useTeamActivity must be used inside TeamActivityProvider');
  return value;
}

/** Calls `listener` for every team activity message while the component is mounted. */
export function useTeamActivity(listener: Listener): void {
  const { subscribe } = useTeamActivityContext();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => subscribe((activity) => latest.current(activity)), [subscribe]);
}

/** Whether the activity stream is connected, and the team's pending approvals. */
export function useTeamActivityState(): Pick<TeamActivityContextValue, 'connected' | 'pendingApprovals'> {
  const { connected, pendingApprovals } = useTeamActivityContext();
  return { connected, pendingApprovals };
}
