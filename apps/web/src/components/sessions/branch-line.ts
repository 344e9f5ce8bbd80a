'use client';

import type { ClientEvent } from '@looplane/events';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/trpc/client';
import type { SessionNode } from './session-format';

/** Which events of the run's stream belong to one line: a filter with a key that changes when the line does. */
export interface LineFilter {
  key: string;
  accepts(event: Pick<ClientEvent, 'sessionId' | 'seq'>): boolean;
}

/**
 * The events of a branch's log among all of a run's events: each session of its ancestry
 * contributes its own events up to where the next one forked (the server's reading, mirrored).
 */
function lineOf(sessions: readonly SessionNode[], sessionId: string): LineFilter | null {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  let node = byId.get(sessionId);
  if (!node) return null;
  const links: { sessionId: string; from: number; upTo: number }[] = [{ sessionId: node.id, from: node.forkSeq ?? 0, upTo: Number.MAX_SAFE_INTEGER }];
  while (node.parentId) {
    const parent = byId.get(node.parentId);
    if (!parent) break;
    const upTo = Math.min(node.forkSeq ?? 0, links[0]!.upTo);
    links.unshift({ sessionId: parent.id, from: Math.min(parent.forkSeq ?? 0, upTo), upTo });
    node = parent;
  }
  // Sessions outside the fork tree (a graph run's node sessions) are shown as before; a session
  // the tree does not list yet is most likely a new fork, so it is not.
  const others = new Set(sessions.filter((s) => s.forkSeq === null).map((s) => s.id));
  return {
    key: links.map((l) => `${l.sessionId}:${l.upTo}`).join('/'),
    accepts: (event) => {
      const link = links.find((l) => l.sessionId === event.sessionId);
      return link ? event.seq > link.from && event.seq <= link.upTo : others.has(event.sessionId);
    },
  };
}

/**
 * The line of the picked branch (the run's main line when none is picked) as a filter over the
 * run's events, once the run has forks (a run without any needs none). Branch events arrive on
 * the run's one stream: without the filter they would interleave with the line's in the timeline.
 */
export function useBranchLine(teamId: string, runId: string, sessionId: string | null): LineFilter | undefined {
  const trpc = useTRPC();
  const tree = useQuery(trpc.sessions.tree.queryOptions({ teamId, runId }));
  const data = tree.data;
  return useMemo(() => {
    if (!data?.mainSessionId || !data.sessions.some((s) => s.forkSeq !== null)) return undefined;
    const picked = sessionId && data.sessions.some((s) => s.id === sessionId) ? sessionId : data.mainSessionId;
    return lineOf(data.sessions, picked) ?? undefined;
  }, [data, sessionId]);
}
