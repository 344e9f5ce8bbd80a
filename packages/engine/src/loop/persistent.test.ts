import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/create-event';
import { fold } from '../state/fold';
import { fixedClock, startFixture } from '../testing';
import { drive } from './drive';
import { next } from './next';

const persistent = { persistent: true };
const say = (text: string) => createEvent('message.added', { role: 'user', text }, fixedClock());

describe('a persistent run', () => {
  it('waits for the next message after each answer instead of finishing, and answers what it was told', async () => {
    const f = await startFixture({ config: persistent, goal: 'Watch the inbox.', script: [{ finish: 'Ready: {{lastUserMessage}}' }] });
    const first = await drive({ ports: f.ports });
    expect(first.outcome).toEqual({ kind: 'waiting', reason: 'message', refs: [] });
    expect(first.state.status).toBe('running');
    expect(first.state.finalText).toBe('Ready: Watch the inbox.');
    expect(f.store.events.map((e) => e.type)).not.toContain('run.finished');

    for (const text of ['order 1', 'order 2']) {
      await f.store.append([say(text)], f.store.lastSeq);
      const { state, outcome } = await drive({ ports: f.ports });
      expect(outcome).toEqual({ kind: 'waiting', reason: 'message', refs: [] });
      // The script ran out: the default answer (here "Done.") is what the model says.
      expect(state.finalText).toBe('Done.');
      expect(f.requests.at(-1)!.messages.at(-1)).toEqual({ role: 'user', content: text });
    }
    expect(fold(await f.store.load()).inputTurn).toBe(2);
  });

  it('counts its turn limit from the latest message, so it can serve more messages than the limit', async () => {
    const f = await startFixture({ config: { ...persistent, limits: { maxTurns: 2 } }, script: [] });
    await drive({ ports: f.ports });
    for (let i = 0; i < 3; i++) {
      await f.store.append([say(`message ${i}`)], f.store.lastSeq);
      expect((await drive({ ports: f.ports })).outcome).toEqual({ kind: 'waiting', reason: 'message', refs: [] });
    }
    expect(next(fold(await f.store.load()))).toEqual({ kind: 'wait', reason: 'message', refs: [] });
  });

  it('a run that is not persistent finishes on its answer', async () => {
    const f = await startFixture({ script: [{ finish: 'Re: {{lastUserMessage}}' }], goal: 'Say hello.' });
    const { state, outcome } = await drive({ ports: f.ports });
    expect(outcome).toEqual({ kind: 'done', status: 'succeeded' });
    expect(state.result).toBe('Re: Say hello.');
  });
});
