import { describe, expect, it } from 'vitest';
import { eventLine } from './session-format';

const at = new Date('2026-03-01T14:02:03.000Z');
const event = (type: string, version: number, payload: unknown) => ({ eventNo: 4, sessionId: 's', seq: 4, type, version, payload, createdAt: at });

describe('eventLine (the branch list and the compare view)', () => {
  it('is the shared decoder’s label and summary, for every version and for types it cannot read', () => {
    expect(eventLine(event('tool.finished', 2, { callId: 'c', ok: true, output: 'done', truncated: false, replayed: true, recordedSeq: 3 }))).toBe(
      'Tool finished: ok (replayed from the log): done',
    );
    expect(eventLine(event('session.forked', 1, { parentSessionId: 'p', atSeq: 3 }))).toBe('Branch forked: from session p at #3');
    expect(eventLine(event('budget.reserved', 1, { requestId: 'r', purpose: 'model', tokens: 10, costMicros: 5 }))).toBe(
      'Budget reserved: 10 tokens, $0.000005 for the model call',
    );
    expect(eventLine(event('tool.paused', 1, {}))).toBe('tool.paused: v1: an event type this version of Looplane does not know');
  });
});
