import { randomBytes } from 'node:crypto';

/** One event of a run's log, as the tracer reads it. */
export interface TraceEvent {
  type: string;
  at: Date;
  payload: Record<string, unknown>;
}

/** A finished span, ready to encode. Ids are hex (32 characters for the trace, 16 for spans). */
export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  start: Date;
  end: Date;
  attributes: Record<string, string | number | boolean>;
  error: boolean;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The span tree of one run, derived from its event log (the log is the truth, and it survives
 * worker crashes, so a trace is never cut short by one): run → turn → model call / tool call /
 * delegation, and approval waits under the tool call they held. Spans still open when the log ends
 * end with it.
 */
export function runSpans(run: { runId: string; teamId: string; status: string; traceId?: string }, events: readonly TraceEvent[]): Span[] {
  if (events.length === 0) return [];
  const traceId = run.traceId ?? hex(16);
  const first = events[0]!.at;
  const last = events[events.length - 1]!.at;
  const spans: Span[] = [];
  const open = new Map<string, Span>();
  const make = (name: string, start: Date, parent: Span | null, attributes: Span['attributes'] = {}): Span => {
    const span: Span = { traceId, spanId: hex(8), parentSpanId: parent?.spanId ?? null, name, start, end: last, attributes, error: false };
    spans.push(span);
    return span;
  };
  const close = (key: string, at: Date, error = false) => {
    const span = open.get(key);
    if (!span) return;
    span.end = at;
    span.error = error;
    open.delete(key);
  };

  const root = make('run', first, null, { 'looplane.run_id': run.runId, 'looplane.team_id': run.teamId, 'looplane.run_status': run.status });
  root.error = run.status === 'failed';
  let turn: Span | null = null;
  for (const event of events) {
    const p = event.payload;
    switch (event.type) {
      case 'model.requested': {
        if (turn) turn.end = event.at;
        turn = make(`turn ${String(p.turn ?? '')}`.trim(), event.at, root, { 'looplane.turn': Number(p.turn ?? 0) });
        open.set(`model:${str(p.requestId)}`, make('model call', event.at, turn, { 'looplane.request_id': str(p.requestId) }));
        break;
      }
      case 'model.responded': {
        const span = open.get(`model:${str(p.requestId)}`);
        const usage = p.usage as { inputTokens?: number; outputTokens?: number } | undefined;
        if (span && usage)
          Object.assign(span.attributes, { 'gen_ai.usage.input_tokens': usage.inputTokens ?? 0, 'gen_ai.usage.output_tokens': usage.outputTokens ?? 0 });
        close(`model:${str(p.requestId)}`, event.at);
        break;
      }
      case 'model.failed':
        close(`model:${str(p.requestId)}`, event.at, true);
        break;
      case 'tool.requested':
        open.set(
          `tool:${str(p.callId)}`,
          make(`tool ${str(p.name)}`, event.at, turn ?? root, { 'looplane.tool': str(p.name), 'looplane.call_id': str(p.callId) }),
        );
        break;
      case 'tool.finished':
        close(`tool:${str(p.callId)}`, event.at, p.ok === false);
        break;
      case 'tool.rejected':
      case 'tool.interrupted':
        close(`tool:${str(p.callId)}`, event.at, true);
        break;
      case 'tool.deferred':
        // Nothing ran: the span ends without an error; the call's run on the capable worker opens its own.
        close(`tool:${str(p.callId)}`, event.at, false);
        break;
      case 'approval.requested':
        open.set(
          `approval:${str(p.callId)}`,
          make('approval wait', event.at, open.get(`tool:${str(p.callId)}`) ?? turn ?? root, { 'looplane.tool': str(p.tool) }),
        );
        break;
      case 'approval.decided':
        close(`approval:${str(p.callId)}`, event.at, p.approved === false);
        break;
      case 'delegation.sent':
        open.set(
          `delegation:${str(p.callId)}`,
          make(`delegation ${str(p.to)}`, event.at, open.get(`tool:${str(p.callId)}`) ?? turn ?? root, { 'looplane.delegate_to': str(p.to) }),
        );
        break;
      case 'delegation.returned':
        close(`delegation:${str(p.callId)}`, event.at, p.ok === false);
        break;
      case 'run.finished':
        if (turn) turn.end = event.at;
        root.end = event.at;
        break;
      default:
        break;
    }
  }
  return spans;
}
