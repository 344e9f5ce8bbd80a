import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/create-event';
import { fold } from '../state/fold';
import { callIds, payloadsOf, runToEnd, startFixture, type ToolHandler } from '../testing';
import { drive } from './drive';
import { next } from './next';

const TOOLS = [{ name: 'build', description: 'Builds the project (not idempotent)', idempotent: false }];

/** A worker without the level: the first invocation is deferred, later ones run. */
function deferredOnce(): ToolHandler {
  let calls = 0;
  return () =>
    calls++ === 0 ? { ok: false, output: 'not run', deferred: { level: 'gvisor', reason: 'the agent requires the gvisor sandbox or stronger' } } : 'built';
}

async function deferredRun() {
  const f = await startFixture({
    config: { tools: TOOLS, toolLoading: 'eager' },
    script: [{ calls: [{ tool: 'build', args: { target: 'all' } }] }, { finish: 'done' }],
    tools: { build: deferredOnce() },
  });
  const waiting = await drive({ ports: f.ports });
  return { f, waiting };
}

describe('a call deferred for an isolation level the worker lacks', () => {
  it('records tool.deferred (no result), puts the call back and waits for isolation naming the level', async () => {
    const { f, waiting } = await deferredRun();
    const [id = ''] = callIds(f.store.events);
    expect(waiting.outcome).toEqual({ kind: 'waiting', reason: 'isolation', refs: ['gvisor', id] });
    expect(payloadsOf(f.store.events, 'tool.deferred')).toEqual([
      { callId: id, level: 'gvisor', reason: 'the agent requires the gvisor sandbox or stronger', approved: false },
    ]);
    expect(payloadsOf(f.store.events, 'tool.finished')).toEqual([]);
    const state = fold(await f.store.load());
    expect(state.calls[0]?.status).toBe('allowed');
    expect(state.waiting).toEqual({ reason: 'isolation', callId: id, level: 'gvisor' });
    expect(state.totals.toolRuns).toBe(0);
    // Another kind of resume does not end it: only a worker offering the level does.
    await f.store.append([createEvent('run.resumed', { reason: 'budget' }, f.ports.clock)], state.lastSeq);
    expect(next(fold(await f.store.load()))).toEqual({ kind: 'wait', reason: 'isolation', refs: ['gvisor', id] });
  });

  it('resumed for isolation, the call runs from the start (attempt 2) and the model sees only its real result', async () => {
    const { f } = await deferredRun();
    const { state } = await runToEnd({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(payloadsOf(f.store.events, 'run.resumed')).toEqual([{ reason: 'isolation', note: 'a worker offering gvisor took the run' }]);
    expect(payloadsOf(f.store.events, 'tool.started').map((p) => p.attempt)).toEqual([1, 2]);
    expect(payloadsOf(f.store.events, 'tool.finished')).toMatchObject([{ ok: true, output: 'built' }]);
    expect(state.totals.toolRuns).toBe(1);
    const told = f.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(told.map((m) => m.content)).toEqual(['built']);
  });
});
