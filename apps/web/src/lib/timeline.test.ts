import { describe, expect, it } from 'vitest';
import { TimelineBuilder, type StreamEvent } from './timeline';

let no = 0;
const ev = (type: string, payload: unknown): StreamEvent => ({ eventNo: ++no, sessionId: 's', seq: no, type, payload, createdAt: '2026-01-01T00:00:00Z' });

describe('TimelineBuilder', () => {
  it('folds a turn: streamed text, tool lifecycle with exit code, cost, finish', () => {
    const t = new TimelineBuilder();
    for (const e of [
      ev('run.started', { goal: 'Fix it' }),
      ev('model.requested', { requestId: 'r1', turn: 0 }),
      ev('model.delta', { requestId: 'r1', index: 0, text: 'Let me ' }),
      ev('model.delta', { requestId: 'r1', index: 1, text: 'look' }),
    ]) t.add(e);
    expect(t.items[1]).toMatchObject({ kind: 'assistant', text: 'Let me look', streaming: true });
    for (const e of [
      ev('model.responded', { requestId: 'r1', text: 'Let me look.', usage: { inputTokens: 10, outputTokens: 4 }, costMicros: 12 }),
      ev('budget.charged', { requestId: 'r1', tokens: 14, costMicros: 12 }),
      ev('tool.requested', { callId: 'c1', requestId: 'r1', name: 'run_shell', args: { command: 'npm test' } }),
      ev('policy.decided', { callId: 'c1', decision: 'allow' }),
      ev('tool.started', { callId: 'c1', name: 'run_shell', args: {}, attempt: 1 }),
      ev('tool.finished', { callId: 'c1', ok: false, output: '1 failing', truncated: false, exitCode: 1, commit: 'a'.repeat(40) }),
      ev('tool.requested', { callId: 'c2', requestId: 'r1', name: 'nope', args: {} }),
      ev('tool.rejected', { callId: 'c2', reason: 'unknown tool nope' }),
      ev('run.finished', { status: 'succeeded', result: 'Fixed' }),
    ]) t.add(e);
    expect(t.items.map((i) => i.kind)).toEqual(['started', 'assistant', 'tool', 'tool', 'finished']);
    expect(t.items[1]).toMatchObject({ text: 'Let me look.', streaming: false, inputTokens: 10, outputTokens: 4, costMicros: 12 });
    expect(t.items[2]).toMatchObject({ name: 'run_shell', status: 'failed', output: '1 failing', exitCode: 1, commit: 'a'.repeat(40) });
    expect(t.items[3]).toMatchObject({ status: 'rejected', reason: 'unknown tool nope' });
    expect(t.items[4]).toMatchObject({ status: 'succeeded', result: 'Fixed' });
  });

  it('shows approvals, denials, budget waits and unknown events', () => {
    const t = new TimelineBuilder();
    t.add(ev('tool.requested', { callId: 'c', requestId: 'r', name: 'git_push', args: {} }));
    t.add(ev('policy.decided', { callId: 'c', decision: 'require_approval', reason: 'pushes need a human' }));
    expect(t.items[0]).toMatchObject({ status: 'awaiting_approval', reason: 'pushes need a human' });
    t.add(ev('approval.decided', { callId: 'c', approved: false, comment: 'not today' }));
    expect(t.items[0]).toMatchObject({ status: 'denied', reason: 'rejected: not today' });
    t.add(ev('budget.exceeded', { requestId: 'r', purpose: 'model', tokens: 1, costMicros: 1, reason: 'cost limit', onExceed: 'wait' }));
    t.add(ev('something.new', {}));
    expect(t.items.slice(1)).toMatchObject([
      { kind: 'notice', tone: 'warning', text: 'Budget exceeded: cost limit — the run waits for a raise' },
      { kind: 'notice', text: 'something.new' },
    ]);
  });

  it('replaces a changed item with a new object and keeps the others', () => {
    const t = new TimelineBuilder();
    t.add(ev('message.added', { role: 'user', text: 'hi' }));
    t.add(ev('model.requested', { requestId: 'q', turn: 1 }));
    const [message, before] = [t.items[0], t.items[1]];
    t.add(ev('model.delta', { requestId: 'q', index: 0, text: 'x' }));
    expect(t.items[0]).toBe(message);
    expect(t.items[1]).not.toBe(before);
  });
});
