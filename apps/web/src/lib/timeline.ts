import { describeEvent, type ClientEvent, type KnownEvent } from '@looplane/events';

export type ToolStatus = 'requested' | 'awaiting_approval' | 'running' | 'ok' | 'failed' | 'rejected' | 'denied' | 'interrupted';

/**
 * Where an item can be forked: the last event folded into it (`seq` on its session's line, what
 * `sessions.fork` takes as `atEvent`) and why the line cannot be forked right after it (null:
 * it can), mirrored from the engine's check; the server checks again.
 */
interface ForkPoint {
  seq: number;
  sessionId: string;
  eventNo: number;
  forkBlocker: string | null;
}

export type TimelineItem = ForkPoint &
  (
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
    /** `commit`: a restore's (`workspace.restored`): the branch's files from there on. */
    | { kind: 'notice'; key: string; tone: 'info' | 'warning' | 'danger'; text: string; at: string; commit?: string }
    | { kind: 'finished'; key: string; status: string; result?: string; error?: string; at: string }
  );

/** An item as the fold builds it, before its fork point is stamped on. */
type Draft = TimelineItem extends infer T ? (T extends TimelineItem ? Omit<T, keyof ForkPoint> : never) : never;

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type NoticeTone = Extract<TimelineItem, { kind: 'notice' }>['tone'];

/** What is open on the line, enough to say why it cannot be forked (the engine's `forkBlocker` and the server's approval check). */
class OpenWork {
  started: boolean;
  cycle: string | null = null;
  readonly running = new Map<string, string>();
  readonly awaiting = new Map<string, string>();
  readonly names = new Map<string, string>();

  constructor(started: boolean) {
    this.started = started;
  }

  track(event: ClientEvent): void {
    switch (event.type) {
      case 'run.started':
        this.started = true;
        return;
      // The engine's model cycle: open from the reservation to its release (after the charge).
      case 'budget.reserved':
        this.cycle = event.payload.requestId;
        return;
      case 'budget.released':
        if (this.cycle === event.payload.requestId) this.cycle = null;
        return;
      case 'tool.requested':
        this.names.set(event.payload.callId, event.payload.name);
        return;
      case 'tool.started':
        this.running.set(event.payload.callId, this.names.get(event.payload.callId) ?? 'a tool');
        return;
      case 'approval.requested':
        this.awaiting.set(event.payload.callId, this.names.get(event.payload.callId) ?? 'a tool');
        return;
      case 'approval.decided':
        this.awaiting.delete(event.payload.callId);
        return;
      case 'tool.finished':
      case 'tool.rejected':
      case 'tool.interrupted':
      case 'tool.deferred':
        this.running.delete(event.payload.callId);
        this.awaiting.delete(event.payload.callId);
        return;
      default:
        return;
    }
  }

  blocker(): string | null {
    if (!this.started) return 'the run has not started at this event';
    if (this.cycle !== null) return `a model call (${this.cycle}) is in flight at this event`;
    const [running] = this.running;
    if (running) return `tool call ${running[0]} (${running[1]}) is running at this event`;
    const [waiting] = this.awaiting;
    if (waiting) return `tool call ${waiting[0]} (${waiting[1]}) waits for an approval at this event, and a pending approval is not inherited`;
    return null;
  }
}

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
  private readonly open: OpenWork;
  private touched: number | undefined;

  /** `fromStart`: the first event added is the line's first (false for a page that starts later). */
  constructor(options: { fromStart?: boolean } = {}) {
    this.open = new OpenWork(options.fromStart === false);
  }

  add(event: ClientEvent): void {
    this.touched = undefined;
    this.fold(event);
    this.open.track(event);
    const at = this.touched;
    if (at === undefined) return;
    this.items[at] = { ...this.items[at]!, seq: event.seq, sessionId: event.sessionId, eventNo: event.eventNo, forkBlocker: this.open.blocker() };
  }

  private fold(event: ClientEvent): void {
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
          item.kind === 'assistant'
            ? { ...item, text: p.text, streaming: false, inputTokens: p.usage.inputTokens, outputTokens: p.usage.outputTokens, costMicros: p.costMicros }
            : item,
        );
      }
      case 'model.failed': {
        const p = event.payload;
        return this.update(`m${p.requestId}`, (item) => (item.kind === 'assistant' ? { ...item, streaming: false, error: p.error.message } : item));
      }
      case 'tool.requested': {
        const p = event.payload;
        return this.push({
          kind: 'tool',
          key: `t${p.callId}`,
          name: p.name,
          args: p.args,
          status: 'requested',
          ...(p.argsError ? { reason: p.argsError } : {}),
          at,
        });
      }
      case 'tools.loaded':
        // The call's result is what it loaded: the decoder's summary of it.
        return this.tool(event, () => ({ status: 'ok', output: describeEvent(event).summary }));
      case 'skill.loaded': {
        // Loaded by a call: that call's result; loaded before the first turn: a line of its own.
        const { callId } = event.payload;
        if (callId) return this.update(`t${callId}`, (item) => (item.kind === 'tool' ? { ...item, status: 'ok', output: describeEvent(event).summary } : item));
        return this.notice(event);
      }
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
        return this.tool(event, (item) =>
          approved
            ? { status: item.status === 'awaiting_approval' ? 'requested' : item.status }
            : { status: 'denied', reason: `rejected${comment ? `: ${comment}` : ''}` },
        );
      }
      case 'tool.started':
        return this.tool(event, () => ({ status: 'running' }));
      case 'tool.finished': {
        const p = event.payload;
        return this.tool(event, () => ({
          status: p.ok ? 'ok' : 'failed',
          output: p.output,
          truncated: p.truncated,
          ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}),
          ...(p.commit ? { commit: p.commit } : {}),
        }));
      }
      case 'tool.rejected':
        return this.tool(event, () => ({ status: 'rejected', reason: event.payload.reason }));
      case 'tool.interrupted':
        return this.tool(event, () => ({ status: 'interrupted', reason: event.payload.reason }));
      case 'tool.deferred':
        // Nothing ran: the call waits for a worker offering its level, then runs there.
        return this.tool(event, () => ({ status: 'requested', reason: `waits for a worker offering ${event.payload.level}: ${event.payload.reason}` }));
      case 'effect.decided':
        // The call ran; its changes were rolled back: held for an approver, or denied (its tool.finished follows).
        return this.tool(event, () => ({
          status: event.payload.decision === 'deny' ? 'denied' : 'awaiting_approval',
          reason: `after it ran: ${event.payload.reason}`,
        }));
      case 'run.finished': {
        const { status, result, error } = event.payload;
        return this.push({ kind: 'finished', key: `e${event.eventNo}`, status, result, error, at });
      }
      case 'budget.charged':
      case 'budget.released': {
        // Shown as the cost of the model turn; the turn can be forked once its cycle is released.
        const at = this.index.get(`m${event.payload.requestId}`);
        if (at !== undefined) this.touched = at;
        return;
      }
      case 'budget.reserved':
        return;
      case 'workspace.restored':
        return this.notice(event, event.payload.commit);
      default:
        return this.notice(event);
    }
  }

  private push(draft: Draft): void {
    this.touched = this.items.length;
    this.index.set(draft.key, this.items.length);
    // The fork point is stamped on in `add`, once the event is folded.
    this.items.push({ ...draft, seq: 0, sessionId: '', eventNo: 0, forkBlocker: null } as TimelineItem);
  }

  private update(key: string, change: (item: TimelineItem) => TimelineItem): void {
    const at = this.index.get(key);
    if (at === undefined) return;
    this.touched = at;
    this.items[at] = change(this.items[at]!);
  }

  private tool(event: Extract<KnownEvent, { payload: { callId: string } }>, change: (item: ToolItem) => Partial<ToolItem>): void {
    this.update(`t${event.payload.callId}`, (item) => (item.kind === 'tool' ? { ...item, ...change(item) } : item));
  }

  /** Any other event (an unknown one too): a line with the decoder's label, summary and tone. */
  private notice(event: ClientEvent, commit?: string): void {
    const { label, summary, tone } = describeEvent(event);
    const noticeTone: NoticeTone = tone === 'success' ? 'info' : tone;
    const text = summary ? `${label}: ${summary}` : label;
    this.push({ kind: 'notice', key: `e${event.eventNo}`, tone: noticeTone, text, at: event.createdAt, ...(commit ? { commit } : {}) });
  }
}
