import { describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { validInputs } from './bad-input.cases';
import { handleTrpcRequest } from './http';
import { callerAs, createAgentFixture, sessionOf } from './testing/fixtures';
import { trpcBadInputBed } from './testing/trpc-bad-input';

/**
 * Bad values of particular fields (a base URL no endpoint may reach, unsafe workspace paths,
 * events outside a session's log, a bad workspace) get a 4xx saying what is wrong, and write
 * nothing. Every procedure's malformed inputs in general: bad-input.int.test.ts.
 */
const b = trpcBadInputBed();
const { tb } = b;
const inputs = validInputs(b);

describe('bad input', () => {
  it('endpoints.create and endpoints.update: a base URL no model endpoint may reach gets 400 saying why, and writes nothing', async () => {
    const before = await b.tableCounts();
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:9/v1', /^baseUrl: 127\.0\.0\.1 is a loopback address: .*LOOPLANE_ENDPOINTS_ALLOW/],
      ['http://169.254.169.254/latest', /^baseUrl: 169\.254\.169\.254 is a link-local address \(a cloud metadata service\)/],
      ['http://[fe80::1]:8080/v1', /^baseUrl: fe80::1 is a link-local address/],
      ['http://[::1]/v1', /^baseUrl: ::1 is a loopback address/],
      ['http://0.0.0.0:11434/v1', /^baseUrl: 0\.0\.0\.0 is an unspecified/],
      ['http://100.100.100.200/v1', /^baseUrl: 100\.100\.100\.200 is a cloud metadata address/],
    ];
    for (const [baseUrl, message] of cases) {
      for (const [path, input] of [
        ['endpoints.create', { ...inputs['endpoints.create']!(), baseUrl }],
        ['endpoints.update', { teamId: tb.fx.teamId, endpointId: tb.agent.endpointId, baseUrl }],
      ] as const) {
        const response = await b.post(path, JSON.stringify(superjson.serialize(input)));
        const payload = (await response.json()) as { error?: { json?: { message?: string } } };
        expect(response.status, `${path} with ${baseUrl}`).toBe(400);
        expect(payload.error?.json?.message, `${path} with ${baseUrl}`).toMatch(message);
      }
    }
    expect(await b.tableCounts()).toEqual(before);
  });

  it('sessions.files: unsafe paths and impossible events get 400 saying what is wrong, and read nothing', async () => {
    const before = await b.tableCounts();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ path: 'src/../../etc/passwd' }, /path: must not contain empty, \. or \.\. segments/],
      [{ path: '..' }, /path: must not contain empty, \. or \.\. segments/],
      [{ path: '/etc/passwd' }, /path: must be relative to the workspace root/],
      [{ path: 'src/a\u0000b' }, /path: must not contain NUL/],
      [{ path: 'a'.repeat(5000) }, /path: must be at most 4096 characters/],
      [{ path: '.git/config' }, /path: must not name \.git/],
      [{ atEvent: 0 }, /atEvent: must be at least 1/],
      [{ atEvent: -1 }, /atEvent: must be at least 1/],
      [{ atEvent: 1.5 }, /atEvent: must be a whole number/],
      [{ atEvent: 2 ** 31 }, /atEvent: must be at most 2147483647/],
    ];
    for (const [change, message] of cases) {
      const input = { teamId: tb.fx.teamId, sessionId: b.sessionId, ...change };
      const response = await handleTrpcRequest(
        new Request(`http://localhost/api/trpc/sessions.files?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`),
        { deps: tb.deps, endpoint: '/api/trpc', session: sessionOf(tb.fx.members.viewer.id), ip: null },
      );
      const payload = (await response.json()) as { error?: { json?: { message?: string } } };
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(payload.error?.json?.message, JSON.stringify(change).slice(0, 80)).toMatch(message);
    }
    // In range for the schema, past the session's log: the message names the range.
    const api = await callerAs(tb.deps, { userId: tb.fx.members.viewer.id });
    await expect(api.sessions.files({ teamId: tb.fx.teamId, sessionId: b.sessionId, atEvent: 7 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/no committed events yet|between 1 and/),
    });
    expect(await b.tableCounts()).toEqual(before);
  });

  it('sessions.restore: unsafe or impossible paths, and events outside the log, get 400 saying what is wrong, and write nothing', async () => {
    const before = await b.tableCounts();
    const jobsBefore = (await tb.live.jobs()).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ paths: ['src/../../etc/passwd'] }, /paths\.0: must not contain empty, \. or \.\. segments/],
      [{ paths: ['ok.txt', '/etc/passwd'] }, /paths\.1: must be relative to the workspace root/],
      [{ paths: ['.git/config'] }, /paths\.0: must not name \.git/],
      [{ paths: ['a\u0000b'] }, /paths\.0: must not contain NUL/],
      [{ paths: [''] }, /paths\.0: names the workspace root; leave paths out to restore the whole workspace/],
      [{ paths: [] }, /paths: must name at least one path/],
      [{ paths: Array.from({ length: 1001 }, (_, i) => `f${i}.txt`) }, /paths: must name at most 1000 paths/],
      [{ atEvent: 0 }, /atEvent: must be at least 1/],
      [{ atEvent: 1.5 }, /atEvent: must be a whole number/],
    ];
    for (const [change, message] of cases) {
      const input = { teamId: tb.fx.teamId, sessionId: b.sessionId, atEvent: 1, ...change };
      const response = await handleTrpcRequest(
        new Request('http://localhost/api/trpc/sessions.restore', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(superjson.serialize(input)),
        }),
        { deps: tb.deps, endpoint: '/api/trpc', session: sessionOf(tb.fx.members.operator.id), ip: null },
      );
      const payload = (await response.json()) as { error?: { json?: { message?: string } } };
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(payload.error?.json?.message, JSON.stringify(change).slice(0, 80)).toMatch(message);
    }
    // In range for the schema, past the session's log: the message names the range.
    const api = await callerAs(tb.deps, { userId: tb.fx.members.operator.id });
    await expect(api.sessions.restore({ teamId: tb.fx.teamId, sessionId: b.sessionId, atEvent: 7 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/no committed events yet|between 1 and/),
    });
    expect(await b.tableCounts()).toEqual(before);
    expect((await tb.live.jobs()).length).toBe(jobsBefore);
  });

  it('a bad workspace for runs.create, agents.create/update or a graph node gets a 4xx saying what is wrong, and writes nothing', async () => {
    const other = await createAgentFixture(tb.db, tb.fx.otherTeamId);
    const theirs = await (await callerAs(tb.deps, { userId: tb.fx.outsider.id })).runs.create({
      teamId: tb.fx.otherTeamId,
      agentId: other.agentId,
      goal: 'theirs',
    });
    const theirSession = (await tb.db.run.findUniqueOrThrow({ where: { id: theirs.runId }, select: { mainSessionId: true } })).mainSessionId!;
    const before = await b.tableCounts();
    const jobsBefore = (await tb.live.jobs()).length;
    const url = 'https://git.example.test/acme/app.git';
    const cases: Array<[unknown, number, RegExp]> = [
      [{ git: { url: 'ftp://git.example.test/app.git' } }, 400, /^Invalid input: workspace.*scheme ftp: is not one of https, http, ssh, file/],
      [{ git: { url: 'not a url' } }, 400, /^Invalid input: workspace.*must not contain spaces or control characters/],
      [{ git: { url: 'https://me:hunter2@git.example.test/acme/app.git' } }, 400, /^Invalid input: workspace.*must not hold a password or token/],
      [{ git: { url, ref: '--upload-pack=touch /tmp/x' } }, 400, /^Invalid input: workspace.*must not start with "-"/],
      [{ git: { url, depth: 0 } }, 400, /^Invalid input: workspace.*depth/],
      [{ git: { url, token: 'ghp_x' } }, 400, /^Invalid input: workspace/],
      [{ git: { url }, archive: { uploadId: 'x' } }, 400, /^Invalid input: workspace/],
      [{ archive: { uploadId: 'cmnosuchupload0000000000' } }, 404, /^No upload cmnosuchupload0000000000 in this team/],
      [{ session: { sessionId: theirSession } }, 404, /^No such session in this team$/],
    ];
    const calls = (workspace: unknown): Array<[string, Record<string, unknown>]> => [
      ['runs.create', { teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'g', workspace }],
      ['agents.create', { teamId: tb.fx.teamId, name: 'ws-agent', endpointId: tb.agent.endpointId, workspace }],
      ['agents.update', { teamId: tb.fx.teamId, agentId: tb.agent.agentId, workspace }],
      [
        'graphs.create',
        { teamId: tb.fx.teamId, name: 'ws-graph', definition: { root: 'a', nodes: [{ key: 'a', agentId: tb.agent.agentId, workspace }], edges: [] } },
      ],
    ];
    for (const [workspace, status, message] of cases) {
      for (const [path, input] of calls(workspace)) {
        const response = await b.post(path, JSON.stringify(superjson.serialize(input)));
        const payload = (await response.json()) as { error?: { json?: { message?: string } } };
        const what = `${path} with ${JSON.stringify(workspace)}`;
        expect(response.status, what).toBe(status);
        // A graph node's field is named by its path in the definition (or the node, for the checks after the schema).
        const said = payload.error?.json?.message?.replace(/^node a: /, '').replace('definition.nodes.0.workspace', 'workspace');
        expect(said, what).toMatch(message);
      }
    }
    expect(await b.tableCounts()).toEqual(before);
    expect((await tb.live.jobs()).length).toBe(jobsBefore);
  });
});
