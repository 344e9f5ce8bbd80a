import { decodeWireEvent, parseWireEvent } from '@looplane/events';
import { describe, expect, it } from 'vitest';
import { formatEvent } from './format-event';

const ev = (eventNo: number, type: string, payload: unknown, version = 1) =>
  decodeWireEvent(parseWireEvent({ eventNo, sessionId: 's', seq: eventNo, type, version, payload, createdAt: '2026-03-01T14:02:03.000Z' }));
const usage = { inputTokens: 100, outputTokens: 20, estimated: false };

describe('formatEvent (looplane tail)', () => {
  it('writes one line per meaningful event from the shared decoder, multi-line texts indented under it', () => {
    expect(formatEvent(ev(1, 'run.started', { goal: 'Fix the tests', config: { model: { model: 'm' } } }))).toBe(
      '14:02:03 #1 Run started         Fix the tests',
    );
    expect(formatEvent(ev(4, 'model.responded', { requestId: 'r', text: 'Looking.', finishReason: 'stop', usage, costMicros: 18 }))).toBe(
      '14:02:03 #4 Model answered      Looking.  [100 in / 20 out, $0.000018]',
    );
    expect(formatEvent(ev(5, 'tool.requested', { callId: 'c', requestId: 'r', name: 'run_shell', args: { command: 'npm test' } }))).toBe(
      '14:02:03 #5 Tool call           run_shell {"command":"npm test"}',
    );
    expect(formatEvent(ev(8, 'tool.finished', { callId: 'c', ok: false, output: '1 failing\nat x', truncated: false, exitCode: 1 }))).toBe(
      '14:02:03 #8 Tool finished       failed (exit 1): 1 failing\n    at x',
    );
    expect(formatEvent(ev(9, 'run.finished', { status: 'succeeded', result: 'Green.' }))).toBe('14:02:03 #9 Run finished        succeeded: Green.');
  });

  it('names who must decide an approval, and both ends of a delegation', () => {
    const approval = { callId: 'c', kind: 'tool', tool: 'shell', args: {}, role: 'approver', reason: 'destructive' };
    expect(formatEvent(ev(6, 'approval.requested', approval))).toBe('14:02:03 #6 Approval needed     shell needs a decision by an approver: destructive');
    expect(formatEvent(ev(6, 'approval.requested', { ...approval, role: 'viewer', reason: undefined }))).toBe(
      '14:02:03 #6 Approval needed     shell needs a decision by a viewer',
    );
    expect(formatEvent(ev(7, 'delegation.sent', { to: 'coder', goal: 'Implement it', callId: 'c1' }))).toBe(
      '14:02:03 #7 Delegated           to coder: Implement it',
    );
    expect(formatEvent(ev(8, 'delegation.returned', { ok: true, callId: 'c1', result: 'Done.' }))).toBe('14:02:03 #8 Delegation returned ok: Done.');
  });

  it('leaves out deltas and bookkeeping, and shows events it cannot read with their stored type', () => {
    expect(formatEvent(ev(2, 'model.delta', { requestId: 'r', index: 0, text: 'x' }))).toBeNull();
    expect(formatEvent(ev(3, 'budget.charged', { requestId: 'r', tokens: 1, costMicros: 1 }))).toBeNull();
    expect(formatEvent(ev(3, 'policy.decided', { callId: 'c', decision: 'allow' }))).toBeNull();
    expect(formatEvent(ev(10, 'something.new', {}))).toBe('14:02:03 #10 something.new       v1: an event type this version of Looplane does not know');
  });
});
