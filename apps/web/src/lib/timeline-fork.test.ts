import { decodeWireEvent, parseWireEvent } from '@looplane/events';
import { describe, expect, it } from 'vitest';
import { TimelineBuilder } from './timeline';

let no = 0;
const ev = (type: string, payload: unknown) =>
  decodeWireEvent(parseWireEvent({ eventNo: ++no + 100, sessionId: 'main', seq: no, type, version: 1, payload, createdAt: '2026-01-01T00:00:00Z' }));

describe('TimelineBuilder fork points', () => {
  it('stamps each item with its last event and why the line cannot be forked right after it', () => {
    no = 0;
    const t = new TimelineBuilder();
    t.add(ev('run.started', { goal: 'g', config: { model: { model: 'm' } } }));
    expect(t.items[0]).toMatchObject({ seq: 1, sessionId: 'main', eventNo: 101, forkBlocker: null });
    // The engine's model cycle runs from the reservation to its release, past the response.
    t.add(ev('budget.reserved', { requestId: 'r1', purpose: 'model', tokens: 10, costMicros: 5 }));
    t.add(ev('model.requested', { requestId: 'r1', turn: 0, messages: 1, tools: [], promptTokens: 1, promptBytes: 1, maxOutputTokens: 10 }));
    expect(t.items[1]).toMatchObject({ kind: 'assistant', seq: 3, forkBlocker: 'a model call (r1) is in flight at this event' });
    t.add(
      ev('model.responded', {
        requestId: 'r1',
        text: 'ok',
        finishReason: 'tool_calls',
        usage: { inputTokens: 1, outputTokens: 1, estimated: false },
        costMicros: 1,
      }),
    );
    expect(t.items[1]).toMatchObject({ seq: 4, forkBlocker: 'a model call (r1) is in flight at this event' });
    t.add(ev('budget.charged', { requestId: 'r1', tokens: 2, costMicros: 1 }));
    t.add(ev('budget.released', { requestId: 'r1', tokens: 8, costMicros: 4 }));
    expect(t.items[1]).toMatchObject({ seq: 6, forkBlocker: null });
    t.add(ev('tool.requested', { callId: 'c1', requestId: 'r1', name: 'run_shell', args: {} }));
    t.add(ev('tool.started', { callId: 'c1', name: 'run_shell', args: {}, attempt: 1 }));
    expect(t.items[2]).toMatchObject({ kind: 'tool', seq: 8, forkBlocker: 'tool call c1 (run_shell) is running at this event' });
    t.add(ev('tool.finished', { callId: 'c1', ok: true, output: '', truncated: false }));
    expect(t.items[2]).toMatchObject({ seq: 9, forkBlocker: null });
    t.add(ev('tool.requested', { callId: 'c2', requestId: 'r1', name: 'git_push', args: {} }));
    t.add(ev('approval.requested', { callId: 'c2', kind: 'tool', tool: 'git_push', args: {}, role: 'approver', reason: 'needs a human' }));
    expect(t.items[3]).toMatchObject({ seq: 11, forkBlocker: expect.stringMatching(/^tool call c2 \(git_push\) waits for an approval/) });
    // An event folded into no item leaves every item as it was.
    const before = [...t.items];
    t.add(ev('budget.reserved', { requestId: 'r2', purpose: 'model', tokens: 10, costMicros: 5 }));
    for (const [i, item] of t.items.entries()) expect(item).toBe(before[i]);
  });

  it('a page that starts after the run began is not blocked by "not started"', () => {
    no = 0;
    const fresh = new TimelineBuilder();
    fresh.add(ev('message.added', { role: 'user', text: 'hi' }));
    expect(fresh.items[0]!.forkBlocker).toBe('the run has not started at this event');
    const later = new TimelineBuilder({ fromStart: false });
    later.add(ev('message.added', { role: 'user', text: 'hi' }));
    expect(later.items[0]!.forkBlocker).toBeNull();
  });
});
