import { describe, expect, it } from 'vitest';
import { fold } from '../state/fold';
import { createEvent } from './create-event';
import { RunStartedEvents } from './run-started';

const clock = { now: () => Date.parse('2026-11-30T10:00:00.000Z') };
const config = {
  model: { model: 'faux-1', contextWindow: 8000 },
  systemPrompt: 'Be brief.',
  tools: [{ name: 'echo', description: 'Echo text.', idempotent: true }],
};

describe('RunStartedEvents', () => {
  it('builds what createEvent builds, validating each distinct snapshot once and sharing it frozen', () => {
    const events = new RunStartedEvents(clock);
    const text = JSON.stringify(config);
    const first = events.create('Do it.', text);
    const second = events.create('Do something else.', text);
    expect(first).toEqual(createEvent('run.started', { goal: 'Do it.', config }, clock));
    expect(second.payload.goal).toBe('Do something else.');
    // One defaulted snapshot, shared: nobody can change it under another run.
    expect(second.payload.config).toBe(first.payload.config);
    expect(Object.isFrozen(first.payload.config)).toBe(true);
    expect(Object.isFrozen(first.payload.config.tools[0])).toBe(true);
    // Modules are strict code: writing to a frozen object throws.
    expect(() => ((first.payload.config as { systemPrompt: string }).systemPrompt = 'changed')).toThrow(TypeError);
    // Runs that fold the shared snapshot share their initial tool definitions too.
    const [a, b] = [fold([{ ...first, seq: 1 }]), fold([{ ...second, seq: 1 }])];
    expect(a.toolDefs).toBe(b.toolDefs);
    expect(a.toolTokens).toBeGreaterThan(0);
  });

  it('refuses a bad snapshot or goal every time, with the error createEvent gives', () => {
    const events = new RunStartedEvents(clock);
    const bad = JSON.stringify({ ...config, model: { model: 'm', contextWindow: -1 } });
    expect(() => events.create('Do it.', bad)).toThrow(/invalid run.started event: config.model.contextWindow/);
    expect(() => events.create('Do it.', bad)).toThrow(/invalid run.started event: config.model.contextWindow/);
    const good = JSON.stringify(config);
    events.create('Do it.', good);
    expect(() => events.create('', good)).toThrow(/invalid run.started event: goal/);
  });

  it('keeps only the most recent snapshots', () => {
    const events = new RunStartedEvents(clock, 2);
    const texts = ['a', 'b', 'c'].map((prompt) => JSON.stringify({ ...config, systemPrompt: prompt }));
    const kept = texts.map((text) => events.create('Go.', text).payload.config);
    expect(events.create('Go.', texts[2]!).payload.config).toBe(kept[2]);
    expect(events.create('Go.', texts[1]!).payload.config).toBe(kept[1]);
    // The oldest was evicted: validated again, a new (equal) snapshot.
    const again = events.create('Go.', texts[0]!).payload.config;
    expect(again).not.toBe(kept[0]);
    expect(again).toEqual(kept[0]);
  });
});
