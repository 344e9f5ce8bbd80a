import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/create-event';
import { fold } from '../state/fold';
import { callIds, fixedClock, payloadsOf, policyFrom, runToEnd, startFixture } from '../testing';
import { drive } from './drive';
import { next } from './next';

const echo = { tools: [{ name: 'echo', description: 'Echo the text back', idempotent: true }], toolLoading: 'eager' as const };

describe('the loop', () => {
  it('finishes with the answer of a turn without tool calls', async () => {
    const f = await startFixture({ script: [{ finish: 'The answer is 42.' }] });
    const { state, outcome } = await drive({ ports: f.ports });
    expect(outcome).toEqual({ kind: 'done', status: 'succeeded' });
    expect(state.result).toBe('The answer is 42.');
    expect(f.store.events.map((e) => e.type)).toEqual([
      'run.started',
      'budget.reserved',
      'model.requested',
      'model.delta',
      'model.responded',
      'budget.charged',
      'budget.released',
      'run.finished',
    ]);
    expect(next(state)).toEqual({ kind: 'done', status: 'succeeded' });
  });

  it('runs a tool and gives the model its result in the next prompt', async () => {
    const f = await startFixture({
      config: echo,
      script: [{ say: 'Echoing.', calls: [{ tool: 'echo', args: { text: 'hi' } }] }, { finish: 'done' }],
      tools: { echo: (args) => `echo: ${args.text}` },
    });
    await drive({ ports: f.ports });
    const [id] = callIds(f.store.events);
    expect(f.toolCalls).toEqual([{ callId: id, name: 'echo', args: { text: 'hi' } }]);
    const second = f.requests[1]!.messages;
    expect(second.slice(-2)).toEqual([
      { role: 'assistant', content: 'Echoing.', toolCalls: [{ id, name: 'echo', arguments: '{"text":"hi"}' }] },
      { role: 'tool', toolCallId: id, content: 'echo: hi' },
    ]);
  });

  it('tells the model about unknown tools and malformed arguments without running anything', async () => {
    const f = await startFixture({
      config: echo,
      script: [
        {
          calls: [
            { tool: 'rm_rf', args: {} },
            { tool: 'echo', rawArgs: '{"text": ' },
            { tool: 'echo', rawArgs: '[1]' },
          ],
        },
        { finish: 'ok' },
      ],
      tools: { echo: () => 'never' },
    });
    const { state } = await drive({ ports: f.ports });
    expect(f.toolCalls).toEqual([]);
    const results = f.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe('Error: unknown tool rm_rf');
    expect(results[1]).toMatch(/^Error: invalid arguments: not valid JSON/);
    expect(results[2]).toBe('Error: invalid arguments: arguments must be a JSON object');
    expect(state.status).toBe('succeeded');
  });

  it('records a denial and reports it to the model', async () => {
    const f = await startFixture({
      config: echo,
      script: [{ calls: [{ tool: 'echo', args: { text: 'x' } }] }, { finish: 'ok' }],
      policy: policyFrom(() => ({ decision: 'deny', reason: 'echo is off today', ruleId: 'r1' })),
      tools: { echo: () => 'never' },
    });
    await drive({ ports: f.ports });
    expect(f.toolCalls).toEqual([]);
    const [id] = callIds(f.store.events);
    expect(payloadsOf(f.store.events, 'policy.decided')).toEqual([{ callId: id, decision: 'deny', reason: 'echo is off today', ruleId: 'r1' }]);
    expect(f.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', toolCallId: id, content: 'Denied by policy: echo is off today' });
  });

  it("waits for an approval, ends the drive, and continues with the approver's edited arguments", async () => {
    const f = await startFixture({
      config: echo,
      script: [{ calls: [{ tool: 'echo', args: { text: 'rm -rf /' } }] }, { finish: 'ok' }],
      policy: policyFrom(() => ({ decision: 'require_approval', role: 'admin', reason: 'dangerous', risk: 'high' })),
      tools: { echo: (args) => `echo: ${args.text}` },
    });
    const first = await drive({ ports: f.ports });
    const [id = ''] = callIds(f.store.events);
    expect(first.outcome).toEqual({ kind: 'waiting', reason: 'approval', refs: [id] });
    expect(f.store.events.at(-1)).toMatchObject({
      type: 'approval.requested',
      payload: { callId: id, kind: 'tool', role: 'admin', risk: 'high', args: { text: 'rm -rf /' } },
    });
    // Waiting costs nothing: a new drive over the same log stops again at once.
    expect((await drive({ ports: f.ports })).steps).toBe(0);
    await f.store.append(
      [createEvent('approval.decided', { callId: id, approved: true, by: 'ann', editedArgs: { text: 'ls' } }, fixedClock())],
      f.store.lastSeq,
    );
    const second = await drive({ ports: f.ports });
    expect(second.outcome).toEqual({ kind: 'done', status: 'succeeded' });
    expect(f.toolCalls.map((c) => c.args)).toEqual([{ text: 'ls' }]);
    expect(f.requests[1]!.messages.at(-1)?.content).toBe('Note: an approver changed the arguments to {"text":"ls"}.\necho: ls');
  });

  it('reports a rejected approval to the model', async () => {
    const f = await startFixture({
      config: echo,
      script: [{ calls: [{ tool: 'echo', args: {} }] }, { finish: 'ok' }],
      policy: policyFrom(() => ({ decision: 'require_approval', role: 'approver' })),
    });
    await runToEnd({ ports: f.ports, decide: () => ({ approved: false, by: 'bob', comment: 'use the staging copy' }) });
    expect(f.toolCalls).toEqual([]);
    expect(f.requests[1]!.messages.at(-1)?.content).toBe('Rejected by an approver (bob): use the staging copy');
  });

  it('delegates concurrently, waits for every child, and gives the model their results', async () => {
    const f = await startFixture({
      config: {
        delegates: [
          { to: 'tester', description: 'runs tests' },
          { to: 'writer', description: 'writes docs' },
        ],
      },
      script: [
        {
          calls: [
            { tool: 'delegate', args: { to: 'tester', goal: 'run the suite' } },
            { tool: 'delegate', args: { to: 'writer', goal: 'write notes' } },
          ],
        },
        { finish: 'both done' },
      ],
    });
    const first = await drive({ ports: f.ports });
    const [a = '', b = ''] = callIds(f.store.events);
    expect(first.outcome).toEqual({ kind: 'waiting', reason: 'child', refs: [a, b] });
    expect(payloadsOf(f.store.events, 'delegation.sent')).toEqual([
      { callId: a, to: 'tester', goal: 'run the suite' },
      { callId: b, to: 'writer', goal: 'write notes' },
    ]);
    await f.store.append([createEvent('delegation.returned', { callId: b, ok: true, result: 'notes written' }, fixedClock())], f.store.lastSeq);
    expect((await drive({ ports: f.ports })).outcome).toEqual({ kind: 'waiting', reason: 'child', refs: [a] });
    await f.store.append([createEvent('delegation.returned', { callId: a, ok: false, result: '3 tests failed' }, fixedClock())], f.store.lastSeq);
    const { state } = await drive({ ports: f.ports });
    expect(state.result).toBe('both done');
    expect(f.requests[1]!.messages.slice(-2).map((m) => m.content)).toEqual(['notes written', 'Delegation failed: 3 tests failed']);
  });

  it('refuses a delegation to a node that is not an outgoing edge', async () => {
    const f = await startFixture({ config: { delegates: [{ to: 'tester' }] }, script: [{ delegate: { to: 'hacker', goal: 'x' } }, { finish: 'ok' }] });
    await drive({ ports: f.ports });
    expect(f.requests[1]!.messages.at(-1)?.content).toBe('Error: cannot delegate to hacker; targets: tester');
  });

  it('fails with a clear message when the model fails, releasing the reservation', async () => {
    const f = await startFixture({ script: [{ fail: { code: 'bad_request', message: 'provider returned 400: model "x" does not exist', status: 400 } }] });
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('failed');
    expect(state.error).toBe('model call failed: provider returned 400: model "x" does not exist');
    expect(f.store.events.map((e) => e.type).slice(-4)).toEqual(['model.failed', 'budget.charged', 'budget.released', 'run.finished']);
    expect(state.cycle).toBeNull();
  });

  it('stops at the turn limit', async () => {
    const f = await startFixture({
      config: { ...echo, limits: { maxTurns: 2 } },
      script: Array(5).fill({ calls: [{ tool: 'echo', args: {} }] }),
      tools: { echo: () => 'again' },
    });
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('failed');
    expect(state.error).toBe('the run reached its limit of 2 model turns');
  });

  it('truncates tool output to the configured size without splitting a character', async () => {
    const f = await startFixture({
      config: { ...echo, limits: { maxToolOutputBytes: 10 } },
      script: [{ calls: [{ tool: 'echo', args: {} }] }, { finish: 'ok' }],
      tools: { echo: () => 'ééééééééé' },
    });
    await drive({ ports: f.ports });
    expect(payloadsOf(f.store.events, 'tool.finished')[0]).toMatchObject({ output: 'ééééé', truncated: true });
  });

  it('records the workspace commit and exit code a tool reports', async () => {
    const commit = 'a'.repeat(40);
    const f = await startFixture({
      config: echo,
      script: [{ calls: [{ tool: 'echo', args: {} }] }, { finish: 'ok' }],
      tools: { echo: () => ({ ok: true, output: 'done', commit, exitCode: 0 }) },
    });
    await drive({ ports: f.ports });
    expect(payloadsOf(f.store.events, 'tool.finished')[0]).toMatchObject({ ok: true, commit, exitCode: 0 });
  });

  it('continues the conversation when a human adds a message after the answer', async () => {
    const f = await startFixture({ script: [{ finish: 'first' }, { finish: 'second' }] });
    await f.store.append([createEvent('message.added', { role: 'notice', text: 'Policy: never push to main.' }, fixedClock())], 1);
    const { state } = await drive({ ports: f.ports });
    expect(state.result).toBe('first');
    expect(f.requests[0]!.messages.at(-1)).toEqual({ role: 'system', content: 'Policy: never push to main.' });
    expect(fold(await f.store.load())).toStrictEqual(state);
  });

  it("holds a message that arrives mid-turn until the turn's tool results are in (the protocol needs them adjacent)", async () => {
    const f = await startFixture({
      config: echo,
      script: [{ calls: [{ tool: 'echo', args: {} }] }, { finish: 'ok' }],
      policy: policyFrom(() => ({ decision: 'require_approval', role: 'approver' })),
      tools: { echo: () => 'echoed' },
    });
    await drive({ ports: f.ports });
    await f.store.append([createEvent('message.added', { role: 'user', text: 'Also check the logs.' }, fixedClock())], f.store.lastSeq);
    expect(fold(await f.store.load()).context.at(-1)?.kind).toBe('assistant');
    await runToEnd({ ports: f.ports });
    expect(f.requests[1]!.messages.slice(-3).map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(f.requests[1]!.messages.at(-1)?.content).toBe('Also check the logs.');
  });

  it('throws on a session without run.started', () => {
    expect(() => next(fold([]))).toThrow('the session has no run.started event');
  });
});
