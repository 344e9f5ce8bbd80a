import { decodeWireEvent, headline, type WireEvent } from '@looplane/events';
import type { BadgeTone } from '@/components/ui/badge';
import type { RouterOutputs } from '@/lib/api-types';

export type SessionNode = RouterOutputs['sessions']['tree']['sessions'][number];
export type BranchDiff = RouterOutputs['sessions']['diff'];

/** Status colours of a branch, as the run list colours runs (idle: not picked up yet). */
export const SESSION_TONE: Record<SessionNode['status'], BadgeTone> = {
  idle: 'neutral',
  running: 'accent',
  waiting: 'warning',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

export const isFinished = (status: SessionNode['status']) => status === 'succeeded' || status === 'failed' || status === 'cancelled';

/** Depth-first order with each branch's depth, so children sit under their parent. */
export function treeOrder(sessions: readonly SessionNode[]): { node: SessionNode; depth: number }[] {
  const children = new Map<string | null, SessionNode[]>();
  const ids = new Set(sessions.map((s) => s.id));
  for (const s of sessions) {
    const parent = s.parentId && ids.has(s.parentId) ? s.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const out: { node: SessionNode; depth: number }[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const node of children.get(parent) ?? []) {
      out.push({ node, depth });
      visit(node.id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

/**
 * One line about an event for the branch timeline and the compare view, from the shared decoder:
 * `sessions.events` and `sessions.diff` send events as the engine's codec reads them.
 */
export function eventLine(event: Omit<WireEvent, 'createdAt'> & { createdAt: Date }): string {
  return headline(decodeWireEvent({ ...event, createdAt: event.createdAt.toISOString() }));
}
