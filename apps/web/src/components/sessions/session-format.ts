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

/** One line about an event for the branch timeline and the compare view. */
export function describeEvent(type: string, payload: unknown): string {
  const p = (payload ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof p[key] === 'string' ? (p[key] as string) : '');
  switch (type) {
    case 'run.started':
      return `Run started: ${text('goal')}`;
    case 'message.added':
      return `${text('role') === 'notice' ? 'Notice' : 'Message'}: ${text('text')}`;
    case 'model.responded':
      return `Model: ${text('text') || '(tool calls)'}`;
    case 'tool.requested':
      return `Tool ${text('name')} requested ${JSON.stringify(p.args ?? {}).slice(0, 120)}`;
    case 'tool.finished':
      return `Tool finished ${p.ok === false ? '(failed)' : 'ok'}${p.replayed === true ? ' (replayed from the log)' : ''}${text('commit') ? ` · commit ${text('commit').slice(0, 7)}` : ''}: ${text('output').slice(0, 160)}`;
    case 'policy.decided':
      return `Policy: ${text('decision')}${text('reason') ? ` (${text('reason')})` : ''}`;
    case 'effect.decided':
      return `Effect ${text('decision') === 'deny' ? 'denied' : 'held for approval'}, rolled back: ${text('reason')}`;
    case 'session.forked':
      return p.replay ? `Replay of ${String((p.replay as { sourceSessionId?: unknown }).sourceSessionId ?? '')} from #${String(p.atSeq ?? '')}` : `Branch forked from ${text('parentSessionId')} at #${String(p.atSeq ?? '')}`;
    case 'delegation.returned':
      return `Delegation returned ${p.ok === false ? '(failed)' : 'ok'}${p.replayed === true ? ' (replayed from the log)' : ''}: ${text('result').slice(0, 160)}`;
    case 'replay.matched':
      return `Replay: turn ${String(p.turn ?? '')} asks for the same calls as the recording`;
    case 'replay.diverged':
      return `Replay diverged at turn ${String(p.turn ?? '')}: ${text('detail')}`;
    case 'run.resumed':
      return `Resumed (${text('reason')})${text('note') ? `: ${text('note')}` : ''}`;
    case 'run.finished':
      return `Finished ${text('status')}${text('result') ? `: ${text('result')}` : ''}${text('error') ? `: ${text('error')}` : ''}`;
    default:
      return type;
  }
}
