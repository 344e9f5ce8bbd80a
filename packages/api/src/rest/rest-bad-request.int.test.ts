import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../http';
import { operationPath, problemOf } from '../testing/rest-client';
import { restBadInputBed } from '../testing/rest-bad-input';
import { NO_SUCH_ID, restBadInputTables } from './rest-bad-input.cases';
import { MAX_IDEMPOTENCY_KEY_CHARS } from './rest-idempotency';
import { restRoutes } from './routes';

/**
 * A REST request that is wrong as a request gets a 4xx problem+json saying why, and writes
 * nothing: a body that is not JSON, not JSON by its type, too large or not a file; a body where
 * none goes; an unknown or repeated query parameter; an id of nothing, a path no route has,
 * another method; a bad Idempotency-Key. Bad values of the inputs: rest-bad-input.int.test.ts.
 */
const b = restBadInputBed();
const tables = restBadInputTables(() => b.r);

describe('REST bad input', () => {
  for (const route of restRoutes.filter((x) => x.body)) {
    it(`${route.operationId}: a body that is not JSON, not JSON by its type, or too large gets 400, 415 or 413, and writes nothing`, async () => {
      const request = tables[route.operationId]!.valid();
      const path = operationPath(route.operationId, request.params);
      await b.writesNothing(async () => {
        const json = { 'content-type': 'application/json' };
        const cases: Array<[string, Record<string, string | number>, Buffer | string, number, RegExp]> = [
          ['cut-off JSON', json, '{"goal": ', 400, /^The body is not valid JSON: /],
          ['bytes that are not UTF-8', json, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, /^The body is not valid JSON: /],
          ['text/plain', { 'content-type': 'text/plain' }, JSON.stringify(request.body), 415, /^Send the body as application\/json \(got text\/plain\)$/],
          ['form data', { 'content-type': 'application/x-www-form-urlencoded' }, 'goal=x', 415, /^Send the body as application\/json/],
          ['no content type', {}, Buffer.from(JSON.stringify(request.body)), 415, /^Send the body as application\/json \(got no content type\)$/],
        ];
        for (const [what, headers, body, status, detail] of cases) {
          expect(problemOf(await b.raw(route.method, path, headers, body), status).detail, `${route.operationId} with ${what}`).toMatch(detail);
        }
        // Over the limit, declared (refused before reading) or streamed (refused once past it).
        const tooLarge = new RegExp(`^Request body is larger than ${MAX_BODY_BYTES} bytes$`);
        expect(problemOf(await b.raw(route.method, path, { ...json, 'content-length': MAX_BODY_BYTES + 1 }, undefined, true), 413).detail).toMatch(tooLarge);
        expect(
          problemOf(await b.raw(route.method, path, { ...json, 'transfer-encoding': 'chunked' }, Buffer.alloc(MAX_BODY_BYTES + 1, 0x20), true), 413).detail,
        ).toMatch(tooLarge);
      });
    });
  }

  for (const route of restRoutes.filter((x) => x.file)) {
    it(`${route.operationId}: a body that is not a file, empty, or declared too large gets 415, 400 or 413, and writes nothing`, async () => {
      const path = operationPath(route.operationId, tables[route.operationId]!.valid().params);
      await b.writesNothing(async () => {
        const json = await b.raw(route.method, path, { 'content-type': 'application/json' }, '{"file":"x"}');
        expect(problemOf(json, 415, 'UNSUPPORTED_MEDIA_TYPE').detail).toMatch(/got application\/json$/);
        expect(problemOf(await b.raw(route.method, path, {}, 'x'), 415).detail).toMatch(/got no content type$/);
        expect(problemOf(await b.raw(route.method, path, { 'content-type': 'application/gzip' }, ''), 400).detail).toBe('The body is empty: send the file');
        const declared = await b.raw(route.method, path, { 'content-type': 'application/gzip', 'content-length': 1024 ** 3 }, undefined, true);
        expect(problemOf(declared, 413, 'PAYLOAD_TOO_LARGE').detail).toMatch(/^The file is larger than the limit of \d+ bytes$/);
        const cut = await b.raw(
          route.method,
          path,
          { 'content-type': 'multipart/form-data; boundary=x' },
          '--x\r\nContent-Disposition: form-data; name="file"',
        );
        expect(problemOf(cut, 400).detail).toMatch(/^The multipart\/form-data body cannot be read/);
      });
    });
  }

  it('a route that takes no body refuses one: 400 on GET and DELETE, 422 naming the field on POST', async () => {
    await b.writesNothing(async () => {
      for (const route of restRoutes.filter((x) => !x.body && !x.file)) {
        const request = tables[route.operationId]?.valid() ?? {};
        const path = operationPath(route.operationId, request.params);
        const reply = await b.raw(route.method, path, { 'content-type': 'application/json' }, '{"surplus":1}');
        if (route.method === 'GET' || route.method === 'DELETE') {
          expect(problemOf(reply, 400, 'BAD_REQUEST').detail, route.operationId).toBe(`${route.method} takes no request body`);
        } else {
          expect(problemOf(reply, 422).errors, route.operationId).toEqual([{ in: 'body', path: 'surplus', message: 'unknown field' }]);
        }
      }
    });
  });

  it('every route refuses an unknown query parameter, and one given twice, with 400 naming it', async () => {
    await b.writesNothing(async () => {
      for (const route of restRoutes) {
        const request = tables[route.operationId]?.valid() ?? {};
        const path = operationPath(route.operationId, request.params);
        const body = request.body === undefined ? undefined : JSON.stringify(request.body);
        const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
        const unknown = problemOf(await b.raw(route.method, `${path}?surplus=1`, headers, body), 400, 'BAD_REQUEST');
        expect(unknown.errors, route.operationId).toEqual([{ in: 'query', path: 'surplus', message: 'unknown query parameter' }]);
        const single = Object.entries(route.query?.shape ?? {}).find(([key]) => key === 'limit' || key === 'version' || key === 'path');
        if (single) {
          const twice = problemOf(await b.raw(route.method, `${path}?${single[0]}=1&${single[0]}=2`, headers, body), 400, 'BAD_REQUEST');
          expect(twice.errors, route.operationId).toEqual([{ in: 'query', path: single[0], message: 'given more than once' }]);
        }
      }
    });
  });

  it('an id of nothing is 404 from the procedure; a path no route has is 404, another method 405 with Allow', async () => {
    await b.writesNothing(async () => {
      for (const route of restRoutes.filter((x) => x.params)) {
        const request = tables[route.operationId]!.valid();
        const params = Object.fromEntries(Object.keys(request.params!).map((key) => [key, NO_SUCH_ID]));
        problemOf(await b.call(route.operationId, { ...request, params }), 404, 'NOT_FOUND');
      }
      expect(problemOf(await b.raw('GET', '/api/v1/no-such-thing', {}), 404, 'NOT_FOUND').detail).toMatch(/^No route GET \/api\/v1\/no-such-thing/);
      // A percent-encoding that is not UTF-8 text names no resource at all.
      problemOf(await b.raw('GET', '/api/v1/runs/%ED%A0%80', {}), 404, 'NOT_FOUND');
      problemOf(await b.raw('GET', '/api/v1/runs/%E0%A4%A', {}), 404, 'NOT_FOUND');
      const put = await b.raw('PUT', '/api/v1/runs', { 'content-type': 'application/json' }, '{}');
      expect(problemOf(put, 405, 'METHOD_NOT_SUPPORTED').detail).toBe('/api/v1/runs does not take PUT; it takes POST, GET');
      expect(put.headers.get('allow')).toBe('POST, GET');
    });
  });

  for (const route of restRoutes.filter((x) => x.idempotent)) {
    it(`${route.operationId}: a bad Idempotency-Key gets 400 naming the header, and starts nothing`, async () => {
      const request = tables[route.operationId]!.valid();
      await b.writesNothing(async () => {
        for (const [key, message] of [
          ['', 'must not be empty'],
          ['k'.repeat(MAX_IDEMPOTENCY_KEY_CHARS + 1), `must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters`],
          ['two words', 'must be visible ASCII characters (no spaces)'],
          ['caf\u00e9', 'must be visible ASCII characters (no spaces)'],
        ] as const) {
          const problem = problemOf(await b.call(route.operationId, { ...request, headers: { 'idempotency-key': key } }), 400, 'BAD_REQUEST');
          expect(problem.detail).toBe(`Idempotency-Key ${message}`);
          expect(problem.errors).toEqual([{ in: 'header', path: 'Idempotency-Key', message }]);
        }
      });
    });
  }
});
