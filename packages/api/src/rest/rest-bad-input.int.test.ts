import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, handleTrpcRequest } from '../http';
import { appRouter } from '../root';
import { dbFingerprints } from '../testing/db-fingerprint';
import { createAgentFixture, sessionOf } from '../testing/fixtures';
import { operationPath, problemOf, type RestReply, type RestRequest } from '../testing/rest-client';
import { restWithFiles } from '../testing/rest-files';
import { restTestbed } from '../testing/rest-testbed';
import { teamResources, type TeamResources } from '../testing/team-resources';
import { MAX_IDEMPOTENCY_KEY_CHARS } from './rest-idempotency';
import { queryString } from './rest-links';
import { restRoutes } from './routes';

/**
 * Bad input to any REST route gets a 4xx problem+json saying what was wrong, and writes nothing.
 * Each route with inputs has a valid request here (real resources, so only the bad part can be
 * wrong); the test derives wrong types, oversize and unstorable text, missing and unknown fields,
 * bad ids, and the raw failures (bad JSON, wrong content type, too large, a body where none goes).
 */
interface Table {
  valid(): RestRequest;
  /** Body or query fields the route takes without. */
  optional?: string[];
}

let r: TeamResources;
const NO_SUCH_ID = 'cmnosuchresource000000000';

const tables: Record<string, Table> = {
  createRun: {
    valid: () => ({
      body: { agentId: r.agent.agentId, goal: 'Do the thing', budget: { tokens: 1000 }, workspace: { git: { url: 'https://git.example.test/a.git' } } },
    }),
    optional: ['budget', 'workspace'],
  },
  listRuns: { valid: () => ({ query: { text: 'thing', limit: 10, status: ['queued'], sort: 'created' } }), optional: ['text', 'limit', 'status', 'sort'] },
  getRun: { valid: () => ({ params: { runId: r.runId } }) },
  cancelRun: { valid: () => ({ params: { runId: r.runId } }) },
  sendRunMessage: { valid: () => ({ params: { runId: r.runId }, body: { text: 'Also check the docs' } }) },
  // Each limit may be left out, but not all three (a case of its own below).
  raiseRunBudget: { valid: () => ({ params: { runId: r.runId }, body: { tokens: 1000 } }), optional: ['tokens'] },
  listRunEvents: { valid: () => ({ params: { runId: r.runId }, query: { after: 5, limit: 100 } }), optional: ['after', 'limit'] },
  listApprovals: { valid: () => ({ query: { status: 'pending', runId: r.runId, limit: 20 } }), optional: ['status', 'runId', 'limit'] },
  getApproval: { valid: () => ({ params: { approvalId: NO_SUCH_ID } }) },
  decideApproval: { valid: () => ({ params: { approvalId: NO_SUCH_ID }, body: { decision: 'approve', comment: 'looks fine' } }), optional: ['comment'] },
  getAgent: { valid: () => ({ params: { agentId: r.agent.agentId } }) },
  updateAgent: {
    valid: () => ({ params: { agentId: r.agent.agentId }, body: { description: 'Sharper', expectedVersion: 1 } }),
    optional: ['description', 'expectedVersion'],
  },
  getGraph: { valid: () => ({ params: { graphId: NO_SUCH_ID }, query: { version: 1 } }), optional: ['version'] },
  runGraph: { valid: () => ({ params: { graphId: NO_SUCH_ID }, body: { goal: 'Review the notes' } }) },
  forkSession: { valid: () => ({ params: { sessionId: r.sessionId }, body: { atEvent: 1, message: 'Try another way' } }), optional: ['message'] },
  replaySession: {
    valid: () => ({ params: { sessionId: r.sessionId }, body: { atEvent: 1, systemPrompt: 'Be brief.', mode: 'stop' } }),
    optional: ['atEvent', 'endpointId', 'systemPrompt'],
  },
  resumeSession: { valid: () => ({ params: { sessionId: r.sessionId }, body: { message: 'Continue' } }) },
  getSessionFiles: { valid: () => ({ params: { sessionId: r.sessionId }, query: { atEvent: 1, path: 'src/app.ts' } }), optional: ['atEvent', 'path'] },
  getSessionPatch: { valid: () => ({ params: { sessionId: r.sessionId }, query: { base: 1 } }), optional: ['base'] },
  restoreSession: { valid: () => ({ params: { sessionId: r.sessionId }, body: { atEvent: 1, paths: ['src/app.ts'] } }), optional: ['paths'] },
  createToken: { valid: () => ({ body: { name: 'ci', role: 'viewer', expiresInDays: 30 } }), optional: ['expiresInDays'] },
  revokeToken: { valid: () => ({ params: { tokenId: NO_SUCH_ID } }) },
  addMcpServer: { valid: () => ({ body: { name: 'files', transport: 'stdio', command: 'npx', args: ['server-filesystem'] } }), optional: ['args'] },
  refreshMcpServer: { valid: () => ({ params: { serverId: NO_SUCH_ID } }) },
  removeMcpServer: { valid: () => ({ params: { serverId: NO_SUCH_ID } }) },
  // Its body is a file, not JSON: its query is checked before the body is read (the body's own refusals are a case below).
  createUpload: { valid: () => ({ query: { filename: 'seed.tar.gz' } }), optional: ['filename'] },
  getUpload: { valid: () => ({ params: { uploadId: NO_SUCH_ID } }) },
  listSkills: { valid: () => ({ query: { archived: 'true' } }), optional: ['archived'] },
  createSkill: {
    valid: () => ({
      body: {
        name: 'quote-drafting',
        description: 'Drafts quotes.',
        instructions: '# Quotes\nIn EUR.',
        files: [{ path: 'quotes/rules.md', content: 'Round up.' }],
      },
    }),
    optional: ['files'],
  },
  getSkill: { valid: () => ({ params: { skillId: NO_SUCH_ID } }) },
  updateSkill: {
    valid: () => ({ params: { skillId: NO_SUCH_ID }, body: { description: 'Sharper', expectedVersion: 1 } }),
    optional: ['description', 'expectedVersion'],
  },
  archiveSkill: { valid: () => ({ params: { skillId: NO_SUCH_ID }, body: { archived: true } }), optional: ['archived'] },
  createSchedule: {
    valid: () => ({
      body: {
        name: 'nightly',
        agentId: r.agent.agentId,
        everySeconds: 3600,
        timezone: 'Europe/Berlin',
        goal: 'Triage at {{scheduledAt}}',
        budget: { tokens: 1000 },
        workspace: { git: { url: 'https://git.example.test/a.git' } },
        overlap: 'skip',
        catchUp: 'latest',
        enabled: true,
        pauseAfterFailures: 5,
      },
    }),
    // everySeconds may give way to cron (a case of its own in rest-schedules.int.test.ts).
    optional: ['everySeconds', 'timezone', 'budget', 'workspace', 'overlap', 'catchUp', 'enabled', 'pauseAfterFailures'],
  },
  getSchedule: { valid: () => ({ params: { scheduleId: NO_SUCH_ID }, query: { ticks: 10 } }), optional: ['ticks'] },
  updateSchedule: {
    valid: () => ({ params: { scheduleId: NO_SUCH_ID }, body: { goal: 'Triage again', everySeconds: 600 } }),
    optional: ['goal', 'everySeconds'],
  },
  deleteSchedule: { valid: () => ({ params: { scheduleId: NO_SUCH_ID } }) },
  pauseSchedule: { valid: () => ({ params: { scheduleId: NO_SUCH_ID } }) },
  resumeSchedule: { valid: () => ({ params: { scheduleId: NO_SUCH_ID } }) },
  runScheduleNow: { valid: () => ({ params: { scheduleId: NO_SUCH_ID } }) },
  createTrigger: {
    valid: () => ({
      body: {
        name: 'inbox',
        target: { type: 'start_run', agentId: r.agent.agentId, goalTemplate: 'Quote for {{payload.mail.subject}}' },
        auth: 'bearer',
        rateLimitPerMinute: 60,
        enabled: true,
      },
    }),
    optional: ['auth', 'rateLimitPerMinute', 'enabled'],
  },
  getTrigger: { valid: () => ({ params: { triggerId: NO_SUCH_ID } }) },
  updateTrigger: {
    valid: () => ({ params: { triggerId: NO_SUCH_ID }, body: { goalTemplate: 'Quote {{payload}}', rateLimitPerMinute: 30, enabled: false } }),
    optional: ['goalTemplate', 'rateLimitPerMinute', 'enabled'],
  },
  deleteTrigger: { valid: () => ({ params: { triggerId: NO_SUCH_ID } }) },
  rotateTriggerSecret: { valid: () => ({ params: { triggerId: NO_SUCH_ID } }) },
  listTriggerDeliveries: { valid: () => ({ params: { triggerId: NO_SUCH_ID }, query: { cursor: NO_SUCH_ID, limit: 20 } }), optional: ['cursor', 'limit'] },
};
/** Routes that take no path parameter, query or body. */
const noInput = new Set(['getMe', 'listAgents', 'listGraphs', 'exportAudit', 'listTokens', 'listMcpServers', 'listSchedules', 'listTriggers']);

type Part = 'path' | 'query' | 'body';
interface Variant {
  what: string;
  part: Part;
  /** The field the problem must name (`errors[].path` starts with it). */
  field: string;
  request: RestRequest;
  /** Whether the tRPC procedure refuses the same value (so the message must be tRPC's). */
  shared: boolean;
}

/** Wrong values for one field, as the tRPC bad-input tables make them. */
function wrongValues(value: unknown, inQuery: boolean): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (Array.isArray(value)) out.push(inQuery ? ['with an unknown item', ['no-such-value']] : ['with an item of the wrong type', [12345]], ['as text', 'nope']);
  else if (inQuery) {
    if (typeof value === 'number') out.push(['not a number', 'ten'], ['out of range', 1e12], ['fractional', 1.5]);
    if (typeof value === 'string') out.push(['oversize', 'x'.repeat(5000)], ['with NUL', `${value}\u0000`]);
  } else {
    out.push(['of the wrong type', typeof value === 'number' ? 'ten' : 12345], ['as an object', { $gt: '' }]);
    if (typeof value === 'string') out.push(['oversize', 'x'.repeat(100_000)], ['with NUL', `${value}\u0000`], ['with a lone surrogate', `${value}\uD800`]);
    if (typeof value === 'number') out.push(['out of range', 1e12]);
  }
  return out;
}

function variants(table: Table): Variant[] {
  const valid = table.valid();
  const out: Variant[] = [];
  for (const name of Object.keys(valid.params ?? {})) {
    out.push({
      what: `${name} oversize`,
      part: 'path',
      field: name,
      request: { ...valid, params: { ...valid.params, [name]: 'x'.repeat(65) } },
      shared: false,
    });
    out.push({
      what: `${name} with NUL`,
      part: 'path',
      field: name,
      request: { ...valid, params: { ...valid.params, [name]: `${valid.params![name]}\u0000` } },
      shared: false,
    });
  }
  for (const [part, fields] of [
    ['query', valid.query],
    ['body', valid.body as Record<string, unknown> | undefined],
  ] as const) {
    if (!fields) continue;
    for (const [key, value] of Object.entries(fields)) {
      for (const [what, bad] of wrongValues(value, part === 'query')) {
        out.push({ what: `${key} ${what}`, part, field: key, request: { ...valid, [part]: { ...fields, [key]: bad } }, shared: part === 'body' });
      }
      if (!(table.optional ?? []).includes(key)) {
        const { [key]: _dropped, ...rest } = fields;
        out.push({ what: `${key} missing`, part, field: key, request: { ...valid, [part]: rest }, shared: false });
      }
    }
    out.push({ what: 'an unknown field', part, field: 'surplus', request: { ...valid, [part]: { ...fields, surplus: '1' } }, shared: false });
  }
  if (valid.body !== undefined) {
    for (const [what, body] of [
      ['a string', 'nope'],
      ['an array', [1, 2]],
      ['null', null],
    ] as const)
      out.push({ what: `the body as ${what}`, part: 'body', field: '', request: { ...valid, body }, shared: false });
  }
  return out;
}

const rest = restTestbed({ deps: { runLimits: { perMinute: 0, maxQueued: 0 } } });
const files = restWithFiles(rest);
const db = () => dbFingerprints(rest.tb.db);

beforeAll(async () => {
  r = await teamResources(files.deps, rest.tb.fx.teamId, rest.tb.fx.members.admin.id);
});

/**
 * One request exactly as given (any method with any body and headers), as the admin's token; the
 * body with its Content-Length unless the headers say otherwise. `early`: the body is sent but
 * the request not ended, for a server that answers before reading all of it (413): it answers,
 * then the connection is dropped, without the reset that writing on would cause.
 */
function raw(method: string, path: string, headers: Record<string, string | number>, body?: Buffer | string, early = false): Promise<RestReply> {
  const target = new URL(files.url + path);
  const framed =
    body === undefined || 'content-length' in headers || 'transfer-encoding' in headers ? headers : { ...headers, 'content-length': Buffer.byteLength(body) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(target, { method, headers: { authorization: `Bearer ${rest.token('admin')}`, ...framed } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (early) req.destroy();
        const text = Buffer.concat(chunks).toString('utf8');
        const replyHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') replyHeaders.set(name, value);
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON: kept as text for the assertion to show.
        }
        resolve({ status: res.statusCode ?? 0, headers: replyHeaders, body: parsed });
      });
    });
    req.on('error', reject);
    if (!early) return void req.end(body);
    req.flushHeaders();
    if (body !== undefined) req.write(body);
  });
}

/** The request of an operation, as the admin's token sends it (JSON body, if any). */
function call(operationId: string, request: RestRequest): Promise<RestReply> {
  const route = restRoutes.find((x) => x.operationId === operationId)!;
  const search = request.query ? queryString(request.query) : '';
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return raw(
    route.method,
    operationPath(operationId, request.params) + (search ? `?${search}` : ''),
    { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
    body,
  );
}

/** What the route's tRPC procedure says to the same values (its input: the team, the path parameters and the body). */
async function trpcMessage(procedure: string, request: RestRequest): Promise<{ status: number; message: string | undefined }> {
  const input = { teamId: rest.tb.fx.teamId, ...request.params, ...(request.body as object) };
  const type = (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[procedure]!._def.type;
  const url = `http://localhost/api/trpc/${procedure}`;
  const payload = JSON.stringify({ json: input });
  const response = await handleTrpcRequest(
    type === 'query'
      ? new Request(`${url}?input=${encodeURIComponent(payload)}`)
      : new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }),
    { deps: files.deps, endpoint: '/api/trpc', session: sessionOf(rest.tb.fx.members.admin.id), ip: null },
  );
  const body = (await response.json()) as { error?: { json?: { message?: string } } };
  return { status: response.status, message: body.error?.json?.message };
}

/** Runs `check` and insists the database and the queue are as they were. */
async function writesNothing(check: () => Promise<void>) {
  const before = await db().all();
  const jobs = (await rest.tb.live.jobs()).length;
  await check();
  expect(await db().all()).toEqual(before);
  expect((await rest.tb.live.jobs()).length).toBe(jobs);
}

describe('REST bad input', () => {
  it('has a table for every route that takes input', () => {
    const takesInput = restRoutes.filter((route) => route.params || route.query || route.body).map((route) => route.operationId);
    expect(Object.keys(tables).sort()).toEqual(takesInput.sort());
    expect([...Object.keys(tables), ...noInput].sort()).toEqual(restRoutes.map((route) => route.operationId).sort());
  });

  for (const [operationId, table] of Object.entries(tables)) {
    it(`${operationId}: every malformed part gets 400 (path, query) or 422 (body) naming it, and writes nothing`, async () => {
      const route = restRoutes.find((x) => x.operationId === operationId)!;
      await writesNothing(async () => {
        for (const variant of variants(table)) {
          const what = `${operationId} with ${variant.what}`;
          const status = variant.part === 'body' ? 422 : 400;
          const problem = problemOf(await call(operationId, variant.request), status, status === 422 ? 'UNPROCESSABLE_CONTENT' : 'BAD_REQUEST');
          expect(problem.detail, what).toMatch(/^Invalid input: /);
          expect(problem.detail.length, what).toBeLessThan(1000);
          expect(
            problem.errors?.some((e) => e.in === variant.part && e.path.startsWith(variant.field)),
            `${what}: ${JSON.stringify(problem.errors)}`,
          ).toBe(true);
          if (variant.shared) {
            const trpc = await trpcMessage(route.procedure, variant.request);
            expect(trpc.status, `${what} over tRPC`).toBe(400);
            expect(problem.detail, `${what}: the same message as tRPC`).toBe(trpc.message);
          }
        }
      });
    });
  }

  for (const route of restRoutes.filter((x) => x.body)) {
    it(`${route.operationId}: a body that is not JSON, not JSON by its type, or too large gets 400, 415 or 413, and writes nothing`, async () => {
      const request = tables[route.operationId]!.valid();
      const path = operationPath(route.operationId, request.params);
      await writesNothing(async () => {
        const json = { 'content-type': 'application/json' };
        const cases: Array<[string, Record<string, string | number>, Buffer | string, number, RegExp]> = [
          ['cut-off JSON', json, '{"goal": ', 400, /^The body is not valid JSON: /],
          ['bytes that are not UTF-8', json, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, /^The body is not valid JSON: /],
          ['text/plain', { 'content-type': 'text/plain' }, JSON.stringify(request.body), 415, /^Send the body as application\/json \(got text\/plain\)$/],
          ['form data', { 'content-type': 'application/x-www-form-urlencoded' }, 'goal=x', 415, /^Send the body as application\/json/],
          ['no content type', {}, Buffer.from(JSON.stringify(request.body)), 415, /^Send the body as application\/json \(got no content type\)$/],
        ];
        for (const [what, headers, body, status, detail] of cases) {
          expect(problemOf(await raw(route.method, path, headers, body), status).detail, `${route.operationId} with ${what}`).toMatch(detail);
        }
        // Over the limit, declared (refused before reading) or streamed (refused once past it).
        const tooLarge = new RegExp(`^Request body is larger than ${MAX_BODY_BYTES} bytes$`);
        expect(problemOf(await raw(route.method, path, { ...json, 'content-length': MAX_BODY_BYTES + 1 }, undefined, true), 413).detail).toMatch(tooLarge);
        expect(
          problemOf(await raw(route.method, path, { ...json, 'transfer-encoding': 'chunked' }, Buffer.alloc(MAX_BODY_BYTES + 1, 0x20), true), 413).detail,
        ).toMatch(tooLarge);
      });
    });
  }

  for (const route of restRoutes.filter((x) => x.file)) {
    it(`${route.operationId}: a body that is not a file, empty, or declared too large gets 415, 400 or 413, and writes nothing`, async () => {
      const path = operationPath(route.operationId, tables[route.operationId]!.valid().params);
      await writesNothing(async () => {
        const json = await raw(route.method, path, { 'content-type': 'application/json' }, '{"file":"x"}');
        expect(problemOf(json, 415, 'UNSUPPORTED_MEDIA_TYPE').detail).toMatch(/got application\/json$/);
        expect(problemOf(await raw(route.method, path, {}, 'x'), 415).detail).toMatch(/got no content type$/);
        expect(problemOf(await raw(route.method, path, { 'content-type': 'application/gzip' }, ''), 400).detail).toBe('The body is empty: send the file');
        const declared = await raw(route.method, path, { 'content-type': 'application/gzip', 'content-length': 1024 ** 3 }, undefined, true);
        expect(problemOf(declared, 413, 'PAYLOAD_TOO_LARGE').detail).toMatch(/^The file is larger than the limit of \d+ bytes$/);
        const cut = await raw(route.method, path, { 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nContent-Disposition: form-data; name="file"');
        expect(problemOf(cut, 400).detail).toMatch(/^The multipart\/form-data body cannot be read/);
      });
    });
  }

  it('a route that takes no body refuses one: 400 on GET and DELETE, 422 naming the field on POST', async () => {
    await writesNothing(async () => {
      for (const route of restRoutes.filter((x) => !x.body && !x.file)) {
        const request = tables[route.operationId]?.valid() ?? {};
        const path = operationPath(route.operationId, request.params);
        const reply = await raw(route.method, path, { 'content-type': 'application/json' }, '{"surplus":1}');
        if (route.method === 'GET' || route.method === 'DELETE') {
          expect(problemOf(reply, 400, 'BAD_REQUEST').detail, route.operationId).toBe(`${route.method} takes no request body`);
        } else {
          expect(problemOf(reply, 422).errors, route.operationId).toEqual([{ in: 'body', path: 'surplus', message: 'unknown field' }]);
        }
      }
    });
  });

  it('every route refuses an unknown query parameter, and one given twice, with 400 naming it', async () => {
    await writesNothing(async () => {
      for (const route of restRoutes) {
        const request = tables[route.operationId]?.valid() ?? {};
        const path = operationPath(route.operationId, request.params);
        const body = request.body === undefined ? undefined : JSON.stringify(request.body);
        const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
        const unknown = problemOf(await raw(route.method, `${path}?surplus=1`, headers, body), 400, 'BAD_REQUEST');
        expect(unknown.errors, route.operationId).toEqual([{ in: 'query', path: 'surplus', message: 'unknown query parameter' }]);
        const single = Object.entries(route.query?.shape ?? {}).find(([key]) => key === 'limit' || key === 'version' || key === 'path');
        if (single) {
          const twice = problemOf(await raw(route.method, `${path}?${single[0]}=1&${single[0]}=2`, headers, body), 400, 'BAD_REQUEST');
          expect(twice.errors, route.operationId).toEqual([{ in: 'query', path: single[0], message: 'given more than once' }]);
        }
      }
    });
  });

  it('an id of nothing is 404 from the procedure; a path no route has is 404, another method 405 with Allow', async () => {
    await writesNothing(async () => {
      for (const route of restRoutes.filter((x) => x.params)) {
        const request = tables[route.operationId]!.valid();
        const params = Object.fromEntries(Object.keys(request.params!).map((key) => [key, NO_SUCH_ID]));
        problemOf(await call(route.operationId, { ...request, params }), 404, 'NOT_FOUND');
      }
      expect(problemOf(await raw('GET', '/api/v1/no-such-thing', {}), 404, 'NOT_FOUND').detail).toMatch(/^No route GET \/api\/v1\/no-such-thing/);
      // A percent-encoding that is not UTF-8 text names no resource at all.
      problemOf(await raw('GET', '/api/v1/runs/%ED%A0%80', {}), 404, 'NOT_FOUND');
      problemOf(await raw('GET', '/api/v1/runs/%E0%A4%A', {}), 404, 'NOT_FOUND');
      const put = await raw('PUT', '/api/v1/runs', { 'content-type': 'application/json' }, '{}');
      expect(problemOf(put, 405, 'METHOD_NOT_SUPPORTED').detail).toBe('/api/v1/runs does not take PUT; it takes POST, GET');
      expect(put.headers.get('allow')).toBe('POST, GET');
    });
  });

  for (const route of restRoutes.filter((x) => x.idempotent)) {
    it(`${route.operationId}: a bad Idempotency-Key gets 400 naming the header, and starts nothing`, async () => {
      const request = tables[route.operationId]!.valid();
      await writesNothing(async () => {
        for (const [key, message] of [
          ['', 'must not be empty'],
          ['k'.repeat(MAX_IDEMPOTENCY_KEY_CHARS + 1), `must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters`],
          ['two words', 'must be visible ASCII characters (no spaces)'],
          ['caf\u00e9', 'must be visible ASCII characters (no spaces)'],
        ] as const) {
          const problem = problemOf(await call(route.operationId, { ...request, headers: { 'idempotency-key': key } }), 400, 'BAD_REQUEST');
          expect(problem.detail).toBe(`Idempotency-Key ${message}`);
          expect(problem.errors).toEqual([{ in: 'header', path: 'Idempotency-Key', message }]);
        }
      });
    });
  }

  it('a bad workspace is refused naming it (422 for its shape, 404 for an upload or session the team lacks), and starts nothing', async () => {
    const { db: prisma, fx } = rest.tb;
    const other = await createAgentFixture(prisma, fx.otherTeamId);
    const theirs = await (await rest.tb.asUser(fx.outsider.id)).runs.create({ teamId: fx.otherTeamId, agentId: other.agentId, goal: 'theirs' });
    const theirSession = (await prisma.run.findUniqueOrThrow({ where: { id: theirs.runId }, select: { mainSessionId: true } })).mainSessionId!;
    const url = 'https://git.example.test/acme/app.git';
    await writesNothing(async () => {
      const shapes: Array<[unknown, string, RegExp]> = [
        [{ git: { url: 'ftp://git.example.test/app.git' } }, 'workspace', /scheme ftp: is not one of https, http, ssh, file/],
        [{ git: { url: 'https://me:hunter2@git.example.test/acme/app.git' } }, 'workspace', /must not hold a password or token/],
        [{ git: { url, ref: '-oProxyCommand=x' } }, 'workspace', /must not start with "-"/],
        [{ git: { url, depth: 0 } }, 'workspace', /depth|Too small/],
      ];
      for (const [workspace, field, message] of shapes) {
        for (const [operationId, request] of [
          ['createRun', { body: { agentId: r.agent.agentId, goal: 'g', workspace } }],
          ['runGraph', { params: { graphId: NO_SUCH_ID }, body: { goal: 'g', workspace } }],
          ['updateAgent', { params: { agentId: r.agent.agentId }, body: { workspace } }],
        ] as const) {
          const problem = problemOf(await call(operationId, request), 422, 'UNPROCESSABLE_CONTENT');
          expect(problem.detail, `${operationId} ${JSON.stringify(workspace)}`).toMatch(message);
          expect(problem.errors?.some((e) => e.in === 'body' && e.path.startsWith(field))).toBe(true);
        }
      }
      for (const workspace of [{ archive: { uploadId: NO_SUCH_ID } }, { session: { sessionId: theirSession } }]) {
        problemOf(await call('createRun', { body: { agentId: r.agent.agentId, goal: 'g', workspace } }), 404, 'NOT_FOUND');
        problemOf(await call('updateAgent', { params: { agentId: r.agent.agentId }, body: { workspace } }), 404, 'NOT_FOUND');
      }
    });
  });

  it('checks of a route of its own: the procedures’ own messages, and nothing written', async () => {
    await writesNothing(async () => {
      const raise = problemOf(await call('raiseRunBudget', { params: { runId: r.runId }, body: {} }), 422, 'UNPROCESSABLE_CONTENT');
      expect(raise.detail).toBe('Invalid input: give at least one of tokens, costMicros or toolCalls to raise');
      const edit = problemOf(
        await call('decideApproval', { params: { approvalId: NO_SUCH_ID }, body: { decision: 'reject', editedArgs: { command: 'ls' } } }),
        422,
      );
      expect(edit.errors).toEqual([{ in: 'body', path: 'editedArgs', message: 'only an approval can edit the arguments' }]);
      const cursor = problemOf(await call('listRuns', { query: { cursor: 'bm90LWEtY3Vyc29y' } }), 400, 'BAD_REQUEST');
      expect(cursor.detail).toBe('cursor: not a cursor returned by runs.list');
      const none = problemOf(await call('createRun', { body: { goal: 'g' } }), 422);
      expect(none.errors).toEqual([
        { in: 'body', path: 'agentId', message: 'give the agent (agentId or agentName) or the graph (graphId or graphName) to run' },
      ]);
      const unsafe = problemOf(await call('getSessionFiles', { params: { sessionId: r.sessionId }, query: { path: '../etc/passwd' } }), 400);
      expect(unsafe.errors).toEqual([{ in: 'query', path: 'path', message: expect.stringMatching(/must not contain empty, \. or \.\. segments/) }]);
    });
  });
});
