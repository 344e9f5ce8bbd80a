import { describe, expect, it } from 'vitest';
import { canonicalJson, chainHash, GENESIS_HASH, type AuditRowContent } from './chain';

const row: AuditRowContent = {
  teamId: 't1',
  seq: 1,
  actorType: 'user',
  actorId: 'u1',
  action: 'token.created',
  targetType: 'token',
  targetId: 'k1',
  data: { b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } },
  ip: null,
  createdAt: '2026-11-30T00:00:00.000Z',
};

describe('audit chain hashing', () => {
  it('canonical JSON sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null }, u: undefined })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it('is deterministic and sensitive to every field and to the previous hash', () => {
    const hash = chainHash(GENESIS_HASH, row);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(chainHash(GENESIS_HASH, { ...row, data: { a: { c: null, d: [2, { y: 2, z: 1 }] }, b: 1 } })).toBe(hash);
    for (const change of [{ seq: 2 }, { action: 'token.revoked' }, { actorId: 'u2' }, { data: {} }, { createdAt: '2026-11-30T00:00:00.001Z' }]) {
      expect(chainHash(GENESIS_HASH, { ...row, ...change })).not.toBe(hash);
    }
    expect(chainHash(hash, row)).not.toBe(hash);
  });
});
