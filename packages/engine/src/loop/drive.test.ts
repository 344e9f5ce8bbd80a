import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/create-event';
import { createScriptedModel } from '../model/scripted-model';
import type { ModelPort } from '../ports/model-port';
import { fold, foldUntil } from '../state/fold';
import { fixedClock, InMemoryEventStore, MemoryBudget, payloadsOf, startFixture } from '../testing';
import { cancelRun } from './cancel';
import { drive } from './drive';
import { forkBlocker } from './fork';

const ANSWER = 'The quick brown fox jumps over the lazy dog, twice over.';

/** Streams the answer 4 characters at a time, yielding between chunks; `onChunk` may interrupt. */
function slowModel(onChunk: (index: number) => void = () => {}): ModelPort {
  return {
    async complete(_request, options = {}) {
      for (let i = 0; i * 4 < ANSWER.length; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        options.signal?.throwIfAborted();
        options.onDelta?.(ANSWER.slice(i * 4, i * 4 + 4));
        onChunk(i);
      }
      return { ok: true, text: ANSWER, toolCalls: [], usage: { inputTokens: 10, outputTokens: 20 }, finishReason: 'stop' };
    },
  };
}

describe('drive', () => {
  it('streams text to onDelta live and persists it in chunks that add up to the answer', async () => {
    const f = await startFixture({ model: slowModel() });
    const live: string[] = [];
    const seen: string[] = [];
    await drive({ ports: f.ports, deltaChunkChars: 10, onDelta: (_, text) => live.push(text), onEvent: (e) => seen.push(e.type) });
    const deltas = payloadsOf(f.store.events, 'model.delta');
    expect(live.join('')).toBe(ANSWER);
    expect(deltas.map((d) => d.text).join('')).toBe(ANSWER);
    expect(deltas.map((d) => d.index)).toEqual(deltas.map((_, i) => i));
    expect(deltas.slice(0, -1).every((d) => d.text.length >= 10)).toBe(true);
    expect(seen).toEqual(f.store.events.slice(1).map((e) => e.type));
  });

  it('never cuts a surrogate pair between two deltas, and records unstorable text as U+FFFD, marked', async () => {
    // 7 units, then a pair: with chunks of 8 the pair straddles the first boundary.
    const answer = '1234567🙂89\u0000';
    // One UTF-16 unit per delta: the pair arrives in two halves, as a streaming server may send it.
    const split: ModelPort = {
      async complete(_request, options = {}) {
        for (let i = 0; i < answer.length; i++) options.onDelta?.(answer[i]!);
        return { ok: true, text: answer, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' };
      },
    };
    const f = await startFixture({ model: split });
    await drive({ ports: f.ports, deltaChunkChars: 8 });
    const deltas = payloadsOf(f.store.events, 'model.delta');
    expect(deltas.map((d) => d.text)).toEqual(['1234567', '🙂89\uFFFD']);
    expect(deltas.map((d) => d.sanitized)).toEqual([undefined, true]);
    expect(payloadsOf(f.store.events, 'model.responded')[0]).toMatchObject({ text: '1234567🙂89\uFFFD', sanitized: true });
    expect(f.store.events.at(-1)).toMatchObject({ type: 'run.finished', payload: { status: 'succeeded', result: '1234567🙂89\uFFFD' } });
  });

  it('an aborted model call records nothing more; the next drive resumes the stream without repeating persisted text', async () => {
    const controller = new AbortController();
    const f = await startFixture({ model: slowModel((i) => i === 6 && controller.abort()) });
    const first = await drive({ ports: f.ports, deltaChunkChars: 8, signal: controller.signal });
    expect(first.outcome).toEqual({ kind: 'aborted' });
    const persisted = payloadsOf(f.store.events, 'model.delta')
      .map((d) => d.text)
      .join('');
    expect(persisted.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(persisted)).toBe(true);
    const resumed = await drive({ ports: { ...f.ports, model: slowModel() }, deltaChunkChars: 8 });
    expect(resumed.state.result).toBe(ANSWER);
    expect(
      payloadsOf(f.store.events, 'model.delta')
        .map((d) => d.text)
        .join(''),
    ).toBe(ANSWER);
    expect(payloadsOf(f.store.events, 'model.requested')).toHaveLength(1);
    const clean = await startFixture({ model: slowModel() });
    await drive({ ports: clean.ports, deltaChunkChars: 8 });
    expect(f.store.events).toStrictEqual(clean.store.events);
  });

  it('losing the lease mid-stream aborts the model call and surfaces the conflict', async () => {
    let chunksAfterFailure = 0;
    let failed = false;
    const f = await startFixture({
      model: slowModel((i) => {
        if (failed) chunksAfterFailure++;
        if (i === 2) {
          f.store.failNextAppend();
          failed = true;
        }
      }),
    });
    await expect(drive({ ports: f.ports, deltaChunkChars: 4 })).rejects.toThrow('lease lost');
    expect(chunksAfterFailure).toBeLessThan(3);
  });

  it('stops at a step boundary when asked, and a later drive finishes the run', async () => {
    const stop = new AbortController();
    const f = await startFixture({ script: [{ finish: 'done' }] });
    const first = await drive({ ports: f.ports, stopSignal: stop.signal, onEvent: (e) => e.type === 'budget.reserved' && stop.abort() });
    expect(first).toMatchObject({ outcome: { kind: 'stopped' }, steps: 1 });
    expect((await drive({ ports: f.ports })).state.result).toBe('done');
  });

  it('cancelRun settles the open reservation, interrupts started calls and closes the run', async () => {
    const budget = new MemoryBudget(1_000_000);
    const f = await startFixture({ script: [{ finish: 'never' }], budget });
    await drive({ ports: f.ports, maxSteps: 1 });
    expect(budget.open.size).toBe(1);
    const state = await cancelRun(f.ports, fold(await f.store.load()), 'cancelled by ann');
    expect(state).toMatchObject({ status: 'cancelled', error: 'cancelled by ann', cycle: null });
    expect(budget.open.size).toBe(0);
    expect(f.store.events.slice(-3).map((e) => e.type)).toEqual(['budget.charged', 'budget.released', 'run.finished']);
    expect((await drive({ ports: f.ports })).outcome).toEqual({ kind: 'done', status: 'cancelled' });
  });

  it('forks: the state at any seq is the fold of the prefix, and a fork continues on its own', async () => {
    const tools = { tools: [{ name: 'echo', description: 'echo', idempotent: true }], toolLoading: 'eager' as const };
    const parent = await startFixture({
      config: tools,
      script: [{ calls: [{ tool: 'echo', args: { n: 1 } }] }, { finish: 'parent answer' }],
      tools: { echo: () => 'e' },
    });
    await drive({ ports: parent.ports });
    const events = parent.store.events;
    const atTool = events.find((e) => e.type === 'tool.started')!.seq;
    expect(forkBlocker(foldUntil(events, atTool))).toMatch(/^tool call call-\d+ \(echo\) is running at this event$/);
    expect(forkBlocker(foldUntil(events, 2))).toMatch(/^a model call \(req-2\) is in flight at this event$/);
    const atSeq = events.find((e) => e.type === 'tool.finished')!.seq;
    expect(forkBlocker(foldUntil(events, atSeq))).toBeNull();
    const child = new InMemoryEventStore(events.filter((e) => e.seq <= atSeq));
    await child.append([createEvent('session.forked', { parentSessionId: 'session-1', atSeq }, fixedClock())], atSeq);
    const fork = await startFixture({ config: tools, store: child, model: createScriptedModel([{ finish: 'unused' }, { finish: 'fork answer' }]) });
    const { state } = await drive({ ports: fork.ports });
    expect(state.result).toBe('fork answer');
    expect(child.events.slice(0, atSeq)).toStrictEqual(events.slice(0, atSeq));
    expect(fold(await parent.store.load()).result).toBe('parent answer');
  });
});
