import { describeEvent, type ClientEvent, type KnownEvent } from '@looplane/events';

export type ToolStatus = 'requested' | 'awaiting_approval' | 'running' | 'ok' | 'failed' | 'rejected' | 'denied' | 'interrupted';

export type TimelineItem =
  | { kind: 'started'; key: string; goal: string; at: string }
  | { kind: 'message'; key: string; role: string; text: string; at: string }
  | {
      kind: 'assistant';
      key: string;
      turn: number;
      text: string;
      streaming: boolean;
      inputTokens?: number;
      outputTokens?: number;
      costMicros?: number;
      error?: string;
      at: string;
    }
  | {
      kind: 'tool';
      key: string;
      name: string;
      args: unknown;
      status: ToolStatus;
      output?: string;
      truncated?: boolean;
      exitCode?: number;
      /** Workspace commit after a mutating call. */
      commit?: string;
      reason?: string;
      at: string;
    }
  | { kind: 'notice'; key: string; tone: 'info' | 'warning' | 'danger'; text: string; at: string }
  | { kind: 'finished'; key: string; status: string; result?: string; error?: string; at: string };

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type NoticeTone = Extract<TimelineItem, { kind: 'notice' }>['tone'];

/**
 * Folds a run's events (decoded by `@looplane/events`) into what the timeline shows: one item per
 * message, model turn (its streamed deltas appended) and tool call (its lifecycle folded in);
 * every other event is a notice with the shared decoder's label and summary. Incremental: `add`
 * is called once per event, in event-number order, and replaces a changed item with a new object
 * so React re-renders only that item.
 */
export class TimelineBuilder {
  items: TimelineItem[] = [];
  private readonly index = new Map<string, number>();

  add(event: ClientEvent): void {
    const at = event.createdAt;
    switch (event.type) {
      case 'run.started':
        return this.push({ kind: 'started', key: `e${event.eventNo}`, goal: event.payload.goal, at });
      case 'message.added':
        return this.push({ kind: 'message', key: `e${event.eventNo}`, role: event.payload.role, text: event.payload.text, at });
      case 'model.requested':
        return this.push({ kind: 'assistant', key: `m${event.payload.requestId}`, turn: event.payload.turn, text: '', streaming: true, at });
      case 'model.delta': {
        const { requestId, text } = event.payload;
        return this.update(`m${requestId}`, (item) => (item.kind === 'assistant' ? { ...item, text: item.text + text } : item));
      }
      case 'model.responded': {
        const p = event.payload;
        return this.update(`m${p.requestId}`, (item) =>
          item.kind === 'assistant' ? { ...item, text: p.text, streaming: false, inputTokens: p.usage.inputTokens, outputTokens: p.usage.outputTokens, costMicros: p.costMicros } : item,
        );
      }
      case 'model.failed': {
        const p = event.payload;
        return this.update(`m${p.requestId}`, (item) => (item.kind === 'assistant' ? { ...item, streaming: false, error: p.error.message } : item));
      }
      case 'tool.requested': {
        const p = event.payload;
        return this.push({ kind: 'tool', key: `t${p.callId}`, name: p.name, args: p.args, status: 'requested', ...(p.argsError ? { reason: p.argsError } : {}), at });
      }
      case 'tools.loaded':
        // The call's result is what it loaded: the decoder's summary of it.
        return this.tool(event, () => ({ status: 'ok', output: describeEvent(event).summary }));
      case 'policy.decided': {
        const { decision, reason } = event.payload;
        if (decision === 'deny') return this.tool(event, () => ({ status: 'denied', reason: reason ?? 'denied by policy' }));
        if (decision === 'require_approval') return this.tool(event, () => ({ status: 'awaiting_approval', reason }));
        return;
      }
      case 'approval.requested':
        return this.tool(event, () => ({ status: 'awaiting_approval', reason: event.payload.reason }));
      case 'approval.decided': {
        const { approved, comment } = event.payload;
        return this.tool(event, (item) => (approved ? { status: item.status === 'awaiting_approval' ? 'requested' : item.status } : { status: 'denied', reason: `rejected${comment ? `: ${comment}` : ''}` }));
      }
      case 'tool.started':
        return this.tool(event, () => ({ status: 'running' }));
      case 'tool.finished': {
        const p = event.payload;
        return this.tool(event, () => ({ status: p.ok ? 'ok' : 'failed', output: p.output, truncated: p.truncated, ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}), ...(p.commit ? { commit: p.commit } : {}) }));
      }
      case 'tool.rejected':
        return this.tool(event, () => ({ status: 'rejected', reason: event.payload.reason }));
      case 'tool.interrupted':
        return this.tool(event, () => ({ status: 'interrupted', reason: event.payload.reason }));
      case 'effect.decided':
        // The call ran; its changes were rolled back: held for an approver, or denied (its tool.finished follows).
        return this.tool(event, () => ({ status: event.payload.decision === 'deny' ? 'denied' : 'awaiting_approval', reason: `after it ran: ${event.payload.reason}` }));
      case 'run.finished': {
        const { status, result, error } = event.payload;
        return this.push({ kind: 'finished', key: `e${event.eventNo}`, status, result, error, at });
      }
      case 'budget.reserved':
      case 'budget.charged':
      case 'budget.released':
        return; // shown as the cost of the model turn
      default:
        return this.notice(event);
    }
  }

  private push(item: TimelineItem): void {
    this.index.set(item.key, this.items.length);
    this.items.push(item);
  }

  private update(key: string, change: (item: TimelineItem) => TimelineItem): void {
    const at = this.index.get(key);
    if (at === undefined) return;
    this.items[at] = change(this.items[at]!);
  }

  private tool(event: Extract<KnownEvent, { payload: { callId: string } }>, change: (item: ToolItem) => Partial<ToolItem>): void {
    this.update(`t${event.payload.callId}`, (item) => (item.kind === 'tool' ? { ...item, ...change(item) } : item));
  }

  /** Any other event (an unknown one too): a line with the decoder's label, summary and tone. */
  private notice(event: ClientEvent): void {
    const { label, summary, tone } = describeEvent(event);
    const noticeTone: NoticeTone = tone === 'success' ? 'info' : tone;
    this.push({ kind: 'notice', key: `e${event.eventNo}`, tone: noticeTone, text: summary ? `${label}: ${summary}` : label, at: event.createdAt });
  }
}
