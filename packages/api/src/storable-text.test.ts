import { describe, expect, it } from 'vitest';
import { unstorableTextPath } from './storable-text';

describe('unstorableTextPath', () => {
  it('names the first string or key with NUL or an unpaired surrogate, and passes everything else', () => {
    expect(unstorableTextPath({ a: 'fine', b: ['ok', { c: 'x\u0000y' }] })).toEqual(['b', '1', 'c']);
    expect(unstorableTextPath({ goal: 'broken \uD83D' })).toEqual(['goal']);
    expect(unstorableTextPath({ goal: 'broken \uDE00 low' })).toEqual(['goal']);
    expect(unstorableTextPath({ 'k\u0000': 1 })).toEqual(['k\\0']);
    expect(unstorableTextPath({ goal: 'emoji 😀 and ünïcode', n: 5, t: true, z: null })).toBeNull();
    expect(unstorableTextPath('x\u0000')).toEqual([]);
    expect(unstorableTextPath(undefined)).toBeNull();
  });

  it('passes bytes (an upload’s archive) without walking them', () => {
    const bytes = Buffer.alloc(8 * 1024 * 1024);
    const started = performance.now();
    expect(unstorableTextPath({ filename: 'seed.tar', data: bytes })).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
    expect(unstorableTextPath({ filename: 'a\u0000', data: new Uint8Array(1) })).toEqual(['filename']);
  });
});
