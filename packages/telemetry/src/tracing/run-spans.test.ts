import { describe, expect, it } from 'vitest';
import { encodeSpans, tracesUrl } from './otlp-json';
import { runSpans, type TraceEvent } from './run-spans';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const ev = (s: number, type: string, payload: Record<string, unknown> = {}): TraceEvent => ({ type, at: at(s), payload });

describe('runSpans', () => {
  const events = [
    ev(0, 'run.started'),
    ev(1, 'model.requested', { requestId: 'm1', turn: 0 }),
    ev(2, 'model.responded', { requestId: 'm1', usage: { inputTokens: 10, outputTokens: 5 } }),
    ev(2, 'tool.requested', { callId: 'c1', name: 'delegate' }),
    ev(3, 'delegation.sent', { callId: 'c1', to: 'reviewer' }),
    ev(8, 'delegation.returned', { callId: 'c1', ok: true }),
    ev(8, 'tool.finished', { callId: 'c1', ok: true }),
    ev(9, 'model.requested', { requestId: 'm2', turn: 1 }),
    ev(10, 'model.failed', { requestId: 'm2' }),
    ev(11, 'run.finished', { status: 'failed' }),
  ];
  const spans = runSpans({ runId: 'r1', teamId: 't1', status: 'failed', traceId: 'a'.repeat(32) }, events);
  const named = (name: string) => spans.find((s) => s.name === name)!;
  const parent = (name: string) => spans.find((s) => s.spanId === named(name).parentSpanId)?.name;

  it('builds run → turn → model / tool → delegation with the events’ times', () => {
    expect(spans.map((s) => s.name)).toEqual(['run', 'turn 0', 'model call', 'tool delegate', 'delegation reviewer', 'turn 1', 'model call']);
    expect(spans.every((s) => s.traceId === 'a'.repeat(32))).toBe(true);
    expect(parent('turn 0')).toBe('run');
    expect(parent('tool delegate')).toBe('turn 0');
    expect(parent('delegation reviewer')).toBe('tool delegate');
    expect(named('delegation reviewer')).toMatchObject({ start: at(3), end: at(8), error: false });
    expect(named('turn 0')).toMatchObject({ start: at(1), end: at(9) });
    expect(named('run')).toMatchObject({ start: at(0), end: at(11), error: true });
    expect(named('model call').attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 });
    expect(spans.at(-1)).toMatchObject({ name: 'model call', error: true, end: at(10) });
  });

  it('encodes OTLP/JSON with nanosecond times and parent ids', () => {
    const body = encodeSpans(spans, 'looplane-worker');
    const encoded = body.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(encoded[0]).toMatchObject({ name: 'run', startTimeUnixNano: `${at(0).getTime()}000000`, status: { code: 2 } });
    expect(encoded[0]).not.toHaveProperty('parentSpanId');
    expect(encoded[1]!.parentSpanId).toBe(encoded[0]!.spanId);
    expect(tracesUrl('http://collector:4318/')).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl('http://collector:4318/v1/traces')).toBe('http://collector:4318/v1/traces');
  });

  it('makes no spans for an empty log', () => {
    expect(runSpans({ runId: 'r', teamId: 't', status: 'queued' }, [])).toEqual([]);
  });
});
