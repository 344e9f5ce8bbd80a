import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/create-event';
import type { EngineEvent, NewEvent } from '../events/event-types';
import { parseRunConfig } from '../config/run-config';
import { apply, fold } from '../state/fold';
import { next } from './next';
import { forkBlocker } from './fork';

const clock = { now: () => Date.parse('2026-11-30T00:00:00.000Z') };
const config = parseRunConfig({ systemPrompt: 'Be thorough.', model: { model: 'scripted', contextWindow: 8000, maxOutputTokens: 100 } });

function numbered(events: NewEvent[], from = 1): EngineEvent[] {
  return events.map((e, i) => ({ ...e, seq: from + i }) as EngineEvent);
}

const finishedLog = () =>
  numbered([
    createEvent('run.started', { goal: 'Do it.', config }, clock),
    createEvent('message.added', { role: 'user', text: 'and this' }, clock),
    createEvent('run.finished', { status: 'succeeded', result: 'done' }, clock),
  ]);

describe('session trees in the engine', () => {
  it('a finished state is forkable, and `session.forked` reopens it (a branch of a finished run continues)', () => {
    const state = fold(finishedLog());
    expect(forkBlocker(state)).toBeNull();
    expect(next(state)).toEqual({ kind: 'done', status: 'succeeded' });
    apply(state, { ...createEvent('session.forked', { parentSessionId: 'parent', atSeq: 3 }, clock), seq: 4 } as EngineEvent);
    expect(state).toMatchObject({ status: 'running', result: null, error: null });
    apply(state, { ...createEvent('message.added', { role: 'user', text: 'one more' }, clock), seq: 5 } as EngineEvent);
    expect(next(state).kind).toBe('reserve');
  });

  it('`run.resumed` reopens a finished branch; a running one is left as it is', () => {
    const state = fold(finishedLog());
    apply(state, { ...createEvent('run.resumed', { reason: 'operator', note: 'new instruction' }, clock), seq: 4 } as EngineEvent);
    expect(state.status).toBe('running');
    const running = fold(finishedLog().slice(0, 2));
    const before = structuredClone(running);
    apply(running, { ...createEvent('run.resumed', { reason: 'operator' }, clock), seq: 3 } as EngineEvent);
    expect({ ...running, lastSeq: before.lastSeq, updatedAt: before.updatedAt }).toEqual(before);
  });

  it('a fork with its own config replaces the system prompt in place and uses the new model limits', () => {
    const state = fold(finishedLog().slice(0, 2));
    const tokens = state.contextTokens;
    const own = parseRunConfig({ ...config, systemPrompt: 'Be brief.', model: { ...config.model, maxOutputTokens: 50 } });
    apply(state, { ...createEvent('session.forked', { parentSessionId: 'p', atSeq: 2, config: own }, clock), seq: 3 } as EngineEvent);
    expect(state.config?.model.maxOutputTokens).toBe(50);
    expect(state.context[0]).toMatchObject({ kind: 'system', pinned: true });
    expect(JSON.stringify(state.context[0]!.message)).toContain('Be brief.');
    expect(JSON.stringify(state.context)).not.toContain('Be thorough.');
    expect(state.contextTokens).toBe(state.context.reduce((sum, item) => sum + item.tokens, 0));
    expect(state.contextTokens).toBeLessThanOrEqual(tokens);
  });
});
