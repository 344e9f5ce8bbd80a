import { describe, expect, it } from 'vitest';
import { upcastStored } from './stored-event';

const row = (type: string, version: number, payload: unknown) => ({
  eventNo: 3,
  sessionId: 's',
  seq: 3,
  type,
  version,
  payload,
  createdAt: new Date('2026-03-01T00:00:00Z'),
});

describe('upcastStored (what the server puts on the wire)', () => {
  it('upcasts and validates through the engine codec, keeping the row’s other fields', () => {
    const stored = row('tool.finished', 1, { callId: 'c', ok: true, output: 'x', truncated: false });
    expect(upcastStored(stored)).toEqual({ ...stored, version: 2 });
    const egress = upcastStored(row('egress.decided', 1, { callId: 'c', kind: 'http', method: 'GET', host: 'h', port: 80, allowed: true, reason: 'ok' }));
    expect(egress.payload).toMatchObject({ injectedHeaders: [] });
  });

  it('keeps a row the codec refuses as stored, for the client to show as unknown', () => {
    for (const stored of [row('tool.paused', 1, {}), row('tool.finished', 9, {}), row('message.added', 1, { role: 'robot' })])
      expect(upcastStored(stored)).toBe(stored);
  });
});
