import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../testing';
import { createEvent } from './create-event';
import { createEventCodec, decodeEvent, eventVersion } from './event-codec';
import { payloadSchemas } from './payloads';

describe('event versioning', () => {
  // A type whose payload changed twice: v1 { who }, v2 { name }, v3 { name, greeting }.
  const codec = createEventCodec(
    { 'greeting.sent': z.object({ name: z.string(), greeting: z.string() }) },
    {
      'greeting.sent': [(p) => ({ name: (p as { who: string }).who }), (p) => ({ ...(p as object), greeting: 'hello' })],
    },
  );
  const raw = (v: number, payload: unknown) => ({ seq: 7, type: 'greeting.sent', v, at: '2026-01-01T00:00:00.000Z', payload });

  it('upcasts old payloads to the current version when read', () => {
    expect(codec.currentVersion('greeting.sent')).toBe(3);
    expect(codec.decode(raw(1, { who: 'ada' }))).toEqual(raw(3, { name: 'ada', greeting: 'hello' }));
    expect(codec.decode(raw(2, { name: 'ada' }))).toEqual(raw(3, { name: 'ada', greeting: 'hello' }));
    expect(codec.decode(raw(3, { name: 'ada', greeting: 'hi' }))).toEqual(raw(3, { name: 'ada', greeting: 'hi' }));
  });

  it('refuses unknown types, newer versions and malformed payloads with a precise message', () => {
    expect(() => codec.decode({ ...raw(1, {}), type: 'nope' })).toThrow('event 7 has unknown type nope');
    expect(() => codec.decode(raw(4, {}))).toThrow('event 7 (greeting.sent) has version 4; this engine reads 1..3');
    expect(() => codec.decode(raw(3, { name: 1 }))).toThrow(/event 7 \(greeting.sent\) is malformed at name/);
  });

  it('writes every engine event type at version 1 today, but the three a replay marks and run.finished (v2)', () => {
    const v2 = new Set(['run.finished', 'session.forked', 'tool.finished', 'delegation.returned']);
    for (const type of Object.keys(payloadSchemas) as (keyof typeof payloadSchemas)[]) expect(eventVersion(type), type).toBe(v2.has(type) ? 2 : 1);
  });

  it('createEvent validates payloads from outside the loop and applies defaults', () => {
    const started = createEvent('run.started', { goal: 'ship it', config: { model: { model: 'm' } } }, fixedClock(0));
    expect(started).toMatchObject({ type: 'run.started', v: 1, at: '1970-01-01T00:00:00.000Z' });
    expect(started.payload.config.toolLoading).toBe('on_demand');
    expect(started.payload.config.compaction).toEqual({ threshold: 0.8, keepRecentTurns: 3, summarizer: 'model', summaryMaxTokens: 1024 });
    expect(() => createEvent('approval.decided', { callId: '', approved: true }, fixedClock())).toThrow('invalid approval.decided event: callId:');
    expect(() =>
      createEvent('run.started', { goal: 'x', config: { model: { model: 'm' }, tools: [{ name: 'load_tools', description: '' }] } }, fixedClock()),
    ).toThrow('load_tools, delegate and load_skill are reserved tool names');
  });

  it('decodeEvent reads back what createEvent wrote after a JSON round trip', () => {
    const event = { seq: 1, ...createEvent('message.added', { role: 'user', text: 'hi' }, fixedClock()) };
    expect(decodeEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });
});
