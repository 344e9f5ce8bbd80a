import { describe, expect, it } from 'vitest';
import { createAgentFixture } from '../testing/fixtures';
import { problemOf, type RestRequest } from '../testing/rest-client';
import { restBadInputBed } from '../testing/rest-bad-input';
import { NO_SUCH_ID, noInput, restBadInputTables, type Table } from './rest-bad-input.cases';
import { restRoutes } from './routes';

/**
 * Bad input to any REST route gets a 4xx problem+json saying what was wrong, and writes nothing.
 * Each route with inputs has a valid request (rest-bad-input.cases.ts: real resources, so only the
 * bad part can be wrong); this file derives wrong types, oversize and unstorable text, missing and
 * unknown fields, and checks bad workspaces and the procedures' own checks. The raw failures (bad
 * JSON, wrong content type, too large, a body where none goes, bad ids and headers) are in
 * rest-bad-request.int.test.ts.
 */
const b = restBadInputBed();
const tables = restBadInputTables(() => b.r);

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

describe('REST bad input', () => {
  it('has a table for every route that takes input', () => {
    const takesInput = restRoutes.filter((route) => route.params || route.query || route.body).map((route) => route.operationId);
    expect(Object.keys(tables).sort()).toEqual(takesInput.sort());
    expect([...Object.keys(tables), ...noInput].sort()).toEqual(restRoutes.map((route) => route.operationId).sort());
  });

  for (const [operationId, table] of Object.entries(tables)) {
    it(`${operationId}: every malformed part gets 400 (path, query) or 422 (body) naming it, and writes nothing`, async () => {
      const route = restRoutes.find((x) => x.operationId === operationId)!;
      await b.writesNothing(async () => {
        for (const variant of variants(table)) {
          const what = `${operationId} with ${variant.what}`;
          const status = variant.part === 'body' ? 422 : 400;
          const problem = problemOf(await b.call(operationId, variant.request), status, status === 422 ? 'UNPROCESSABLE_CONTENT' : 'BAD_REQUEST');
          expect(problem.detail, what).toMatch(/^Invalid input: /);
          expect(problem.detail.length, what).toBeLessThan(1000);
          expect(
            problem.errors?.some((e) => e.in === variant.part && e.path.startsWith(variant.field)),
            `${what}: ${JSON.stringify(problem.errors)}`,
          ).toBe(true);
          if (variant.shared) {
            const trpc = await b.trpcMessage(route.procedure, variant.request);
            expect(trpc.status, `${what} over tRPC`).toBe(400);
            expect(problem.detail, `${what}: the same message as tRPC`).toBe(trpc.message);
          }
        }
      });
    });
  }

  it('a bad workspace is refused naming it (422 for its shape, 404 for an upload or session the team lacks), and starts nothing', async () => {
    const { db: prisma, fx } = b.rest.tb;
    const other = await createAgentFixture(prisma, fx.otherTeamId);
    const theirs = await (await b.rest.tb.asUser(fx.outsider.id)).runs.create({ teamId: fx.otherTeamId, agentId: other.agentId, goal: 'theirs' });
    const theirSession = (await prisma.run.findUniqueOrThrow({ where: { id: theirs.runId }, select: { mainSessionId: true } })).mainSessionId!;
    const url = 'https://git.example.test/acme/app.git';
    await b.writesNothing(async () => {
      const shapes: Array<[unknown, string, RegExp]> = [
        [{ git: { url: 'ftp://git.example.test/app.git' } }, 'workspace', /scheme ftp: is not one of https, http, ssh, file/],
        [{ git: { url: 'https://me:hunter2@git.example.test/acme/app.git' } }, 'workspace', /must not hold a password or token/],
        [{ git: { url, ref: '-oProxyCommand=x' } }, 'workspace', /must not start with "-"/],
        [{ git: { url, depth: 0 } }, 'workspace', /depth|Too small/],
      ];
      for (const [workspace, field, message] of shapes) {
        for (const [operationId, request] of [
          ['createRun', { body: { agentId: b.r.agent.agentId, goal: 'g', workspace } }],
          ['runGraph', { params: { graphId: NO_SUCH_ID }, body: { goal: 'g', workspace } }],
          ['updateAgent', { params: { agentId: b.r.agent.agentId }, body: { workspace } }],
        ] as const) {
          const problem = problemOf(await b.call(operationId, request), 422, 'UNPROCESSABLE_CONTENT');
          expect(problem.detail, `${operationId} ${JSON.stringify(workspace)}`).toMatch(message);
          expect(problem.errors?.some((e) => e.in === 'body' && e.path.startsWith(field))).toBe(true);
        }
      }
      for (const workspace of [{ archive: { uploadId: NO_SUCH_ID } }, { session: { sessionId: theirSession } }]) {
        problemOf(await b.call('createRun', { body: { agentId: b.r.agent.agentId, goal: 'g', workspace } }), 404, 'NOT_FOUND');
        problemOf(await b.call('updateAgent', { params: { agentId: b.r.agent.agentId }, body: { workspace } }), 404, 'NOT_FOUND');
      }
    });
  });

  it('checks of a route of its own: the procedures’ own messages, and nothing written', async () => {
    await b.writesNothing(async () => {
      const raise = problemOf(await b.call('raiseRunBudget', { params: { runId: b.r.runId }, body: {} }), 422, 'UNPROCESSABLE_CONTENT');
      expect(raise.detail).toBe('Invalid input: give at least one of tokens, costMicros or toolCalls to raise');
      const edit = problemOf(
        await b.call('decideApproval', { params: { approvalId: NO_SUCH_ID }, body: { decision: 'reject', editedArgs: { command: 'ls' } } }),
        422,
      );
      expect(edit.errors).toEqual([{ in: 'body', path: 'editedArgs', message: 'only an approval can edit the arguments' }]);
      const cursor = problemOf(await b.call('listRuns', { query: { cursor: 'bm90LWEtY3Vyc29y' } }), 400, 'BAD_REQUEST');
      expect(cursor.detail).toBe('cursor: not a cursor returned by runs.list');
      const none = problemOf(await b.call('createRun', { body: { goal: 'g' } }), 422);
      expect(none.errors).toEqual([
        { in: 'body', path: 'agentId', message: 'give the agent (agentId or agentName) or the graph (graphId or graphName) to run' },
      ]);
      const unsafe = problemOf(await b.call('getSessionFiles', { params: { sessionId: b.r.sessionId }, query: { path: '../etc/passwd' } }), 400);
      expect(unsafe.errors).toEqual([{ in: 'query', path: 'path', message: expect.stringMatching(/must not contain empty, \. or \.\. segments/) }]);
    });
  });
});
