import { decodeWireEvent, parseWireEvent } from '@looplane/events';
import { describe, expect, it } from 'vitest';
import { TimelineBuilder } from './timeline';

let no = 0;
const ev = (type: string, payload: unknown, version = 1) =>
  decodeWireEvent(parseWireEvent({ eventNo: ++no, sessionId: 's', seq: no, type, version, payload, createdAt: '2026-01-01T00:00:00Z' }));
const requested = (requestId: string, turn: number) =>
  ev('model.requested', { requestId, turn, messages: 2, tools: [], promptTokens: 10, promptBytes: 40, maxOutputTokens: 100 });
const toolCall = (callId: string, name: string, args: object = {}) => ev('tool.requested', { callId, requestId: 'r', name, args });

describe('TimelineBuilder', () => {
  it('folds a turn: streamed text, tool lifecycle with exit code, cost, finish', () => {
    const t = new TimelineBuilder();
    for (const e of [
      ev('run.started', { goal: 'Fix it', config: { model: { model: 'm' } } }),
      requested('r1', 0),
      ev('model.delta', { requestId: 'r1', index: 0, text: 'Let me ' }),
      ev('model.delta', { requestId: 'r1', index: 1, text: 'look' }),
    ])
      t.add(e);
    expect(t.items[1]).toMatchObject({ kind: 'assistant', text: 'Let me look', streaming: true });
    for (const e of [
      ev('model.responded', {
        requestId: 'r1',
        text: 'Let me look.',
        finishReason: 'tool_calls',
        usage: { inputTokens: 10, outputTokens: 4, estimated: false },
        costMicros: 12,
      }),
      ev('budget.charged', { requestId: 'r1', tokens: 14, costMicros: 12 }),
      toolCall('c1', 'run_shell', { command: 'npm test' }),
      ev('policy.decided', { callId: 'c1', decision: 'allow' }),
      ev('tool.started', { callId: 'c1', name: 'run_shell', args: {}, attempt: 1 }),
      // A v1 row, upcast by the engine's codec like every version.
      ev('tool.finished', { callId: 'c1', ok: false, output: '1 failing', truncated: false, exitCode: 1, commit: 'a'.repeat(40) }, 1),
      toolCall('c2', 'nope'),
      ev('tool.rejected', { callId: 'c2', reason: 'unknown tool nope' }),
      ev('run.finished', { status: 'succeeded', result: 'Fixed' }),
    ])
      t.add(e);
    expect(t.items.map((i) => i.kind)).toEqual(['started', 'assistant', 'tool', 'tool', 'finished']);
    expect(t.items[1]).toMatchObject({ text: 'Let me look.', streaming: false, inputTokens: 10, outputTokens: 4, costMicros: 12 });
    expect(t.items[2]).toMatchObject({ name: 'run_shell', status: 'failed', output: '1 failing', exitCode: 1, commit: 'a'.repeat(40) });
    expect(t.items[3]).toMatchObject({ status: 'rejected', reason: 'unknown tool nope' });
    expect(t.items[4]).toMatchObject({ status: 'succeeded', result: 'Fixed' });
  });

  it('shows approvals, denials, budget waits and unknown events', () => {
    const t = new TimelineBuilder();
    t.add(toolCall('c', 'git_push'));
    t.add(ev('policy.decided', { callId: 'c', decision: 'require_approval', reason: 'pushes need a human' }));
    expect(t.items[0]).toMatchObject({ status: 'awaiting_approval', reason: 'pushes need a human' });
    t.add(ev('approval.decided', { callId: 'c', approved: false, comment: 'not today' }));
    expect(t.items[0]).toMatchObject({ status: 'denied', reason: 'rejected: not today' });
    t.add(ev('budget.exceeded', { requestId: 'r', purpose: 'model', tokens: 1, costMicros: 1, reason: 'cost limit', onExceed: 'wait' }));
    t.add(ev('something.new', {}));
    t.add(ev('tool.finished', { callId: 'c', ok: true, output: '', truncated: false }, 3));
    expect(t.items.slice(1)).toMatchObject([
      { kind: 'notice', tone: 'warning', text: 'Budget exceeded: cost limit — the run waits for a raise' },
      { kind: 'notice', tone: 'info', text: 'something.new: v1: an event type this version of Looplane does not know' },
      { kind: 'notice', tone: 'info', text: expect.stringMatching(/^tool.finished: v3: .*has version 3; this engine reads 1..2$/) },
    ]);
    // The unreadable tool.finished did not touch the call.
    expect(t.items[0]).toMatchObject({ status: 'denied' });
  });

  it('labels every other event with the shared decoder', () => {
    const t = new TimelineBuilder();
    t.add(ev('delegation.returned', { callId: 'd', ok: false, result: 'broke' }));
    t.add(ev('egress.decided', { callId: 'c', kind: 'http', method: 'POST', host: 'api.example', port: 443, allowed: false, reason: 'host not allowed' }));
    t.add(ev('session.forked', { parentSessionId: 'p', atSeq: 3 }, 1));
    expect(t.items).toMatchObject([
      { kind: 'notice', tone: 'danger', text: 'Delegation returned: failed: broke' },
      { kind: 'notice', tone: 'warning', text: 'Egress refused: POST api.example:443: host not allowed' },
      { kind: 'notice', tone: 'info', text: 'Branch forked: from session p at #3' },
    ]);
  });

  it('shows a restore as a notice that carries its commit (the files from there on)', () => {
    const t = new TimelineBuilder();
    t.add(ev('workspace.restored', { requestId: 'q', atEvent: 4, commit: 'b'.repeat(40), paths: ['src/app.ts'], requestedBy: 'u1' }));
    expect(t.items).toMatchObject([
      { kind: 'notice', tone: 'info', text: 'Files restored: src/app.ts as at #4, by user u1 · commit bbbbbbb', commit: 'b'.repeat(40), seq: no },
    ]);
  });

  it('replaces a changed item with a new object and keeps the others', () => {
    const t = new TimelineBuilder();
    t.add(ev('message.added', { role: 'user', text: 'hi' }));
    t.add(requested('q', 1));
    const [message, before] = [t.items[0], t.items[1]];
    t.add(ev('model.delta', { requestId: 'q', index: 0, text: 'x' }));
    expect(t.items[0]).toBe(message);
    expect(t.items[1]).not.toBe(before);
  });
});
