/** A run event as the stream delivers it (`data:` of `/api/runs/{id}/stream`). */
export interface StreamEvent {
  eventNo: number;
  sessionId: string;
  seq: number;
  type: string;
  payload: unknown;
  createdAt: string;
}

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

type Payload = Record<string, unknown>;
const str = (p: Payload, key: string) => (typeof p[key] === 'string' ? (p[key] as string) : undefined);
const num = (p: Payload, key: string) => (typeof p[key] === 'number' ? (p[key] as number) : undefined);

/**
 * Folds a run's events into what the timeline shows: one item per message, model turn (its
 * streamed deltas appended) and tool call (its lifecycle folded in). Incremental: `add` is called
 * once per event, in event-number order, and replaces a changed item with a new object so React
 * re-renders only that item.
 */
export class TimelineBuilder {
  items: TimelineItem[] = [];
  private readonly index = new Map<string, number>();

  add(event: StreamEvent): void {
    const p = (event.payload ?? {}) as Payload;
    const at = event.createdAt;
    switch (event.type) {
      case 'run.started':
        return this.push({ kind: 'started', key: `e${event.eventNo}`, goal: str(p, 'goal') ?? '', at });
      case 'message.added':
        return this.push({ kind: 'message', key: `e${event.eventNo}`, role: str(p, 'role') ?? 'user', text: str(p, 'text') ?? '', at });
      case 'model.requested':
        return this.push({ kind: 'assistant', key: `m${str(p, 'requestId')}`, turn: num(p, 'turn') ?? 0, text: '', streaming: true, at });
      case 'model.delta':
        return this.update(`m${str(p, 'requestId')}`, (item) => (item.kind === 'assistant' ? { ...item, text: item.text + (str(p, 'text') ?? '') } : item));
      case 'model.responded': {
        const usage = (p.usage ?? {}) as Payload;
        return this.update(`m${str(p, 'requestId')}`, (item) =>
          item.kind === 'assistant'
            ? { ...item, text: str(p, 'text') ?? item.text, streaming: false, inputTokens: num(usage, 'inputTokens'), outputTokens: num(usage, 'outputTokens'), costMicros: num(p, 'costMicros') }
            : item,
        );
      }
      case 'model.failed': {
        const error = (p.error ?? {}) as Payload;
        return this.update(`m${str(p, 'requestId')}`, (item) => (item.kind === 'assistant' ? { ...item, streaming: false, error: str(error, 'message') ?? 'model call failed' } : item));
      }
      case 'tool.requested':
        return this.push({ kind: 'tool', key: `t${str(p, 'callId')}`, name: str(p, 'name') ?? '?', args: p.args ?? {}, status: 'requested', ...(str(p, 'argsError') ? { reason: str(p, 'argsError') } : {}), at });
      case 'tools.loaded': {
        const loaded = Array.isArray(p.loaded) ? (p.loaded as string[]) : [];
        const unknown = Array.isArray(p.unknown) ? (p.unknown as string[]) : [];
        const output = `loaded: ${loaded.join(', ') || 'none'}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`;
        return this.tool(p, () => ({ status: 'ok', output }));
      }
      case 'policy.decided': {
        const decision = str(p, 'decision');
        if (decision === 'deny') return this.tool(p, () => ({ status: 'denied', reason: str(p, 'reason') ?? 'denied by policy' }));
        if (decision === 'require_approval') return this.tool(p, () => ({ status: 'awaiting_approval', reason: str(p, 'reason') }));
        return;
      }
      case 'approval.requested':
        return this.tool(p, () => ({ status: 'awaiting_approval', reason: str(p, 'reason') }));
      case 'approval.decided':
        return this.tool(p, (item) => (p.approved === false ? { status: 'denied', reason: `rejected${str(p, 'comment') ? `: ${str(p, 'comment')}` : ''}` } : { status: item.status === 'awaiting_approval' ? 'requested' : item.status }));
      case 'tool.started':
        return this.tool(p, () => ({ status: 'running' }));
      case 'tool.finished':
        return this.tool(p, () => ({ status: p.ok === false ? 'failed' : 'ok', output: str(p, 'output') ?? '', truncated: p.truncated === true, ...(num(p, 'exitCode') !== undefined ? { exitCode: num(p, 'exitCode') } : {}), ...(str(p, 'commit') ? { commit: str(p, 'commit') } : {}) }));
      case 'tool.rejected':
        return this.tool(p, () => ({ status: 'rejected', reason: str(p, 'reason') }));
      case 'tool.interrupted':
        return this.tool(p, () => ({ status: 'interrupted', reason: str(p, 'reason') }));
      case 'effect.decided':
        // The call ran; its changes were rolled back: held for an approver, or denied (its tool.finished follows).
        return this.tool(p, () => ({ status: str(p, 'decision') === 'deny' ? 'denied' : 'awaiting_approval', reason: `after it ran: ${str(p, 'reason') ?? 'held by policy'}` }));
      case 'budget.exceeded':
        return this.notice(event, 'warning', `Budget exceeded: ${str(p, 'reason') ?? ''}${p.onExceed === 'wait' ? ' — the run waits for a raise' : ''}`);
      case 'compaction.applied':
        return this.notice(event, 'info', `Context compacted: ${num(p, 'tokensBefore') ?? '?'} → ${num(p, 'tokensAfter') ?? '?'} tokens`);
      case 'run.resumed':
        return this.notice(event, 'info', `Resumed (${str(p, 'reason') ?? 'operator'})${str(p, 'note') ? `: ${str(p, 'note')}` : ''}`);
      case 'delegation.sent':
        return this.notice(event, 'info', `Delegated to ${str(p, 'to') ?? '?'}: ${str(p, 'goal') ?? ''}`);
      case 'delegation.returned':
        return this.notice(event, p.ok === false ? 'danger' : 'info', `Delegation returned: ${str(p, 'result') ?? ''}`);
      case 'memory.written':
        return this.notice(event, 'info', `Memory ${str(p, 'key') ?? '?'} written (v${num(p, 'version') ?? '?'})`);
      case 'replay.matched':
        return this.notice(event, 'info', `Replay: turn ${num(p, 'turn') ?? '?'} asks for the same calls as the recording; its results are served from the log`);
      case 'replay.diverged':
        return this.notice(event, 'warning', `Replay diverged at turn ${num(p, 'turn') ?? '?'}: ${str(p, 'detail') ?? ''}`);
      case 'session.forked':
        return this.notice(event, 'info', `Forked from session ${str(p, 'parentSessionId') ?? '?'} at ${num(p, 'atSeq') ?? '?'}`);
      case 'run.finished':
        return this.push({ kind: 'finished', key: `e${event.eventNo}`, status: str(p, 'status') ?? 'finished', result: str(p, 'result'), error: str(p, 'error'), at });
      case 'budget.reserved':
      case 'budget.charged':
      case 'budget.released':
        return; // shown as the cost of the model turn
      default:
        return this.notice(event, 'info', event.type);
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

  private tool(p: Payload, change: (item: Extract<TimelineItem, { kind: 'tool' }>) => Partial<Extract<TimelineItem, { kind: 'tool' }>>): void {
    this.update(`t${str(p, 'callId')}`, (item) => (item.kind === 'tool' ? { ...item, ...change(item) } : item));
  }

  private notice(event: StreamEvent, tone: 'info' | 'warning' | 'danger', text: string): void {
    this.push({ kind: 'notice', key: `e${event.eventNo}`, tone, text, at: event.createdAt });
  }
}
