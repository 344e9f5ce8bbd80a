import { describe, expect, it } from 'vitest';
import { formatEvent, type StreamedEvent } from './format-event';

const ev = (eventNo: number, type: string, payload: unknown): StreamedEvent => ({ eventNo, sessionId: 's', seq: eventNo, type, payload, createdAt: '2026-03-01T14:02:03.000Z' });

describe('formatEvent', () => {
  it('writes one readable line per meaningful event', () => {
    expect(formatEvent(ev(1, 'run.started', { goal: 'Fix the tests' }))).toBe('14:02:03 #1 start     Fix the tests');
    expect(formatEvent(ev(4, 'model.responded', { text: 'Looking.', usage: { inputTokens: 100, outputTokens: 20 }, costMicros: 18 }))).toBe(
      '14:02:03 #4 model     Looking.  [100 in / 20 out, $0.000018]',
    );
    expect(formatEvent(ev(5, 'tool.requested', { name: 'run_shell', args: { command: 'npm test' } }))).toBe('14:02:03 #5 tool →    run_shell {"command":"npm test"}');
    expect(formatEvent(ev(8, 'tool.finished', { ok: false, output: '1 failing\nat x', exitCode: 1 }))).toBe('14:02:03 #8 tool ←    failed (exit 1): 1 failing\n    at x');
    expect(formatEvent(ev(9, 'run.finished', { status: 'succeeded', result: 'Green.' }))).toBe('14:02:03 #9 finish    succeeded: Green.');
  });

  it('names who must decide an approval, and both ends of a delegation', () => {
    expect(formatEvent(ev(6, 'approval.requested', { tool: 'shell', role: 'approver', reason: 'destructive' }))).toBe('14:02:03 #6 approval  shell needs a decision by an approver: destructive');
    expect(formatEvent(ev(6, 'approval.requested', { tool: 'shell', role: 'viewer' }))).toBe('14:02:03 #6 approval  shell needs a decision by a viewer');
    expect(formatEvent(ev(7, 'delegation.sent', { to: 'coder', goal: 'Implement it', callId: 'c1' }))).toBe('14:02:03 #7 delegate  → coder: Implement it');
    expect(formatEvent(ev(8, 'delegation.returned', { ok: true, callId: 'c1', result: 'Done.' }))).toBe('14:02:03 #8 delegate  ← ok: Done.');
  });

  it('leaves out deltas and bookkeeping, and names unknown events', () => {
    expect(formatEvent(ev(2, 'model.delta', { text: 'x' }))).toBeNull();
    expect(formatEvent(ev(3, 'budget.charged', {}))).toBeNull();
    expect(formatEvent(ev(10, 'something.new', {}))).toBe('14:02:03 #10 event     something.new');
  });
});
