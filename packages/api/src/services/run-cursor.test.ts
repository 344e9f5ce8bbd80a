import { describe, expect, it } from 'vitest';
import { decodeRunCursor, encodeRunCursor } from './run-cursor';

describe('run cursors', () => {
  it('round-trip and stay URL-safe', () => {
    const cursor = { sort: 'updated' as const, at: new Date('2026-03-01T10:20:30.456Z'), id: 'cmabc_12-x' };
    const encoded = encodeRunCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeRunCursor(encoded, 'updated')).toEqual(cursor);
  });

  it('refuse anything runs.list did not produce', () => {
    const forge = (text: string) => Buffer.from(text).toString('base64url');
    for (const value of [
      '',
      'not base64!',
      forge('created|yesterday|x'),
      forge('created|2026-01-01T00:00:00Z|bad id'),
      forge('sideways|2026-01-01T00:00:00Z|x'),
      forge('created|2026-01-01T00:00:00Z|x|y'),
    ]) {
      expect(() => decodeRunCursor(value, 'created'), value).toThrow('cursor: not a cursor returned by runs.list');
    }
    expect(() => decodeRunCursor(encodeRunCursor({ sort: 'created', at: new Date(0), id: 'x' }), 'updated')).toThrow('it belongs to sort=created');
  });
});
