import { describe, expect, it } from 'vitest';
import { namedQuery, param } from './named-query';

const query = namedQuery({
  name: 'test_query_v1',
  text: `SELECT :session_id AS a, x::int, 'it''s :not_a_param' AS "b:c", :lease_ms + :lease_ms -- :nor_this
FROM t WHERE owner = :owner AND note IS NOT DISTINCT FROM :note AND ok = :ok`,
  params: { session_id: param.text, lease_ms: param.int, owner: param.text, note: param.nullableText, ok: param.boolean },
}).returns<{ a: string }>();

describe('namedQuery', () => {
  it('numbers each name once, in order of first use, and casts every occurrence to its declared type', () => {
    expect(query.text).toBe(`SELECT $1::text AS a, x::int, 'it''s :not_a_param' AS "b:c", $2::int + $2::int -- :nor_this
FROM t WHERE owner = $3::text AND note IS NOT DISTINCT FROM $4::text AND ok = $5::boolean`);
  });

  it('binds values by name, in the numbered order', () => {
    const bound = query.bind({ owner: 'w1', ok: true, note: null, lease_ms: 500, session_id: 's1' });
    expect(bound).toEqual({ name: 'test_query_v1', text: query.text, values: ['s1', 500, 'w1', null, true] });
  });

  it('writes typed literals for a simple query, quoting text the way node-postgres does', () => {
    const text = query.inline({ owner: "o'brien \\ x", ok: false, note: null, lease_ms: -5, session_id: 's1' });
    expect(text).toBe(`SELECT 's1'::text AS a, x::int, 'it''s :not_a_param' AS "b:c", (-5)::int + (-5)::int -- :nor_this
FROM t WHERE owner =  E'o''brien \\\\ x'::text AND note IS NOT DISTINCT FROM NULL::text AND ok = FALSE::boolean`);
  });

  it('throws at definition for a name used but not declared, or declared but not used', () => {
    expect(() => namedQuery({ name: 'q', text: 'SELECT :a, :b', params: { a: param.text } })).toThrow('query q: parameter :b not declared');
    expect(() => namedQuery({ name: 'q', text: 'SELECT :a', params: { a: param.text, b: param.int } })).toThrow('query q: declared parameter b not used');
    expect(() => namedQuery({ name: 'q', text: 'SELECT $1', params: {} })).toThrow('positional parameter');
  });

  it('refuses a missing or extra parameter at compile time and at run time', () => {
    const small = namedQuery({ name: 'q', text: 'SELECT :a', params: { a: param.text } });
    // @ts-expect-error a is missing
    expect(() => small.bind({})).toThrow('query q: missing parameter a');
    // @ts-expect-error b is not a parameter
    expect(() => small.bind({ a: 'x', b: 1 })).toThrow('query q: unknown parameter b');
    // @ts-expect-error a is text
    expect(() => small.inline({ a: 1 })).toThrow('parameter :a must be a string');
    // @ts-expect-error a is not nullable
    expect(() => small.inline({ a: null })).toThrow('parameter :a is null but not nullable');
    const int = namedQuery({ name: 'q', text: 'SELECT :n', params: { n: param.int } });
    expect(() => int.inline({ n: 1.5 })).toThrow('parameter :n must be an integer');
  });

  it('writes bytes as a hex bytea literal', () => {
    const bytes = namedQuery({ name: 'q', text: 'SELECT :b', params: { b: param.bytea } });
    expect(bytes.inline({ b: Buffer.from([0, 1, 0xff]).subarray(1) })).toBe("SELECT  E'\\\\x01ff'::bytea");
    expect(bytes.bind({ b: Buffer.from('x') })).toMatchObject({ text: 'SELECT $1::bytea' });
    // @ts-expect-error b is bytes
    expect(() => bytes.inline({ b: '01ff' })).toThrow('parameter :b must be bytes');
  });

  it('writes times and text arrays as typed literals, and refuses values of the wrong kind', () => {
    const q = namedQuery({ name: 'q', text: 'SELECT :at, :ids, :maybe', params: { at: param.timestamptz, ids: param.textArray, maybe: param.nullableInt } });
    expect(q.text).toBe('SELECT $1::timestamptz, $2::text[], $3::int');
    const at = new Date('2026-03-29T01:30:00.123Z');
    expect(q.inline({ at, ids: ["a'b", 'c'], maybe: null })).toBe("SELECT '2026-03-29T01:30:00.123Z'::timestamptz, ARRAY['a''b','c']::text[], NULL::int");
    expect(q.inline({ at, ids: [], maybe: 3 })).toBe("SELECT '2026-03-29T01:30:00.123Z'::timestamptz, '{}'::text[], 3::int");
    expect(q.bind({ at, ids: ['x'], maybe: 1 }).values).toEqual([at, ['x'], 1]);
    expect(() => q.inline({ at: new Date(Number.NaN), ids: [], maybe: null })).toThrow('parameter :at must be a valid Date');
    // @ts-expect-error ids are strings
    expect(() => q.inline({ at, ids: [1], maybe: null })).toThrow('parameter :ids must be an array of strings');
    const ints = namedQuery({ name: 'q', text: 'SELECT :v', params: { v: param.intArray } });
    expect(ints.inline({ v: [1, -2] })).toBe('SELECT ARRAY[1,-2]::int[]');
    expect(ints.inline({ v: [] })).toBe("SELECT '{}'::int[]");
    expect(() => ints.inline({ v: [1.5] })).toThrow('parameter :v must be an array of integers');
  });
});
