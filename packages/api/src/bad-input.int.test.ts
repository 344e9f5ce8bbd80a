import { describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { noInput, optionalKeys, validInputs } from './bad-input.cases';
import { handleTrpcRequest, MAX_BATCH_SIZE, MAX_BODY_BYTES } from './http';
import { appRouter } from './root';
import { issueToken, sessionOf } from './testing/fixtures';
import { trpcBadInputBed } from './testing/trpc-bad-input';

/**
 * Bad input to any procedure gets a 4xx with a clear message and writes nothing. Valid inputs
 * are listed per procedure (bad-input.cases.ts); the test derives wrong types, oversize strings
 * and missing fields. The raw failures (bad JSON, too large, too many calls) are checked here too;
 * checks of particular fields are in bad-input-rules.int.test.ts.
 */
const b = trpcBadInputBed();
const { tb } = b;
const inputs = validInputs(b);

function variants(valid: Record<string, unknown>, optional: string[]): [string, unknown][] {
  const out: [string, unknown][] = [
    ['a string instead of an object', 'nope'],
    ['an array instead of an object', [1, 2]],
    ['null', null],
  ];
  for (const [key, value] of Object.entries(valid)) {
    out.push([`${key} of the wrong type`, { ...valid, [key]: typeof value === 'number' ? 'ten' : 12345 }]);
    out.push([`${key} as an object`, { ...valid, [key]: { $gt: '' } }]);
    if (typeof value === 'string') out.push([`${key} oversize`, { ...valid, [key]: 'x'.repeat(100_000) }]);
    // Text the database cannot store: refused at the edge for every procedure, never a 500.
    if (typeof value === 'string') out.push([`${key} with NUL`, { ...valid, [key]: `${value}\u0000` }]);
    if (typeof value === 'string') out.push([`${key} with a lone surrogate`, { ...valid, [key]: `${value}\uD800` }]);
    if (typeof value === 'number') out.push([`${key} out of range`, { ...valid, [key]: 1e12 }]);
    if (!optional.includes(key)) {
      const { [key]: _dropped, ...rest } = valid;
      out.push([`${key} missing`, rest]);
    }
  }
  return out;
}

describe('bad input', () => {
  it('covers every procedure that takes input', () => {
    const all = Object.keys(appRouter._def.procedures);
    expect([...Object.keys(inputs), ...noInput].sort()).toEqual(all.sort());
  });

  for (const [path, valid] of Object.entries(inputs)) {
    it(`${path}: every malformed input gets 400 with a clear message and writes nothing`, async () => {
      const before = await b.tableCounts();
      const jobsBefore = (await tb.live.jobs()).length;
      for (const [what, input] of variants(valid(), optionalKeys[path] ?? [])) {
        const isQuery = (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[path]?._def.type === 'query';
        const response = isQuery
          ? await handleTrpcRequest(new Request(`http://localhost/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`), {
              deps: tb.deps,
              endpoint: '/api/trpc',
              session: sessionOf(tb.fx.members.admin.id),
              ip: null,
            })
          : await b.post(path, JSON.stringify(superjson.serialize(input)));
        const payload = (await response.json()) as { error?: { json?: { message?: string } } };
        expect(response.status, `${path} with ${what}`).toBe(400);
        expect(payload.error?.json?.message, `${path} with ${what}`).toMatch(/^Invalid input: /);
        expect(payload.error?.json?.message?.length ?? 0).toBeLessThan(1000);
      }
      expect(await b.tableCounts()).toEqual(before);
      expect((await tb.live.jobs()).length).toBe(jobsBefore);
    });
  }

  it('malformed JSON gets 400 with a clear message', async () => {
    const before = await b.tableCounts();
    const response = await b.post('tokens.create', '{"json": {"teamId": ');
    expect(response.status).toBe(400);
    const payload = (await response.json()) as { error?: { json?: { message?: string } } };
    expect(payload.error?.json?.message).toMatch(/JSON|parse/i);
    expect(await b.tableCounts()).toEqual(before);
  });

  it('a body over the limit gets 413 before any parsing', async () => {
    const response = await b.post('tokens.create', new Uint8Array(MAX_BODY_BYTES + 1));
    expect(response.status).toBe(413);
    const payload = (await response.json()) as { error?: { json?: { message?: string } } };
    expect(payload.error?.json?.message).toMatch(/larger than/);
  });

  it(`a batch of more than ${MAX_BATCH_SIZE} calls gets 400 and runs none of them`, async () => {
    const before = await b.tableCounts();
    const input = superjson.serialize(inputs['tokens.create']!());
    const calls = MAX_BATCH_SIZE + 1;
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), input])));
    const response = await b.post(`${Array(calls).fill('tokens.create').join(',')}?batch=1`, body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/Batch call exceeds maximum size/);
    expect(await b.tableCounts()).toEqual(before);
    // At the cap, the batch runs.
    const atCap = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_BATCH_SIZE }, (_, i) => [String(i), input])));
    expect((await b.post(`${Array(MAX_BATCH_SIZE).fill('tokens.create').join(',')}?batch=1`, atCap)).status).toBe(200);
  });

  it('a valid call still works through the same handler', async () => {
    const response = await b.post('tokens.create', JSON.stringify(superjson.serialize(inputs['tokens.create']!())));
    expect(response.status).toBe(200);
  });

  it('a revoked token gets 401', async () => {
    const token = await issueToken(tb.db, tb.fx.teamId, tb.fx.members.admin.id, 'admin');
    const me = () =>
      handleTrpcRequest(new Request('http://localhost/api/trpc/me', { headers: { authorization: `Bearer ${token.secret}` } }), {
        deps: tb.deps,
        endpoint: '/api/trpc',
        session: null,
        ip: null,
      });
    expect((await me()).status).toBe(200);
    await tb.db.apiToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } });
    expect((await me()).status).toBe(401);
  });
});
