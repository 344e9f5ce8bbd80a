import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { handleTrpcRequest, MAX_BATCH_SIZE, MAX_BODY_BYTES } from './http';
import { appRouter } from './root';
import type { ApiDeps } from './context';
import { callerAs, createAgentFixture, createTeamFixture, issueToken, sessionOf, type AgentFixture, type TeamFixture } from './testing/fixtures';
import { createTestLive, type TestLive } from './testing/live';
import { graphDefinitionFor } from './routers/graphs.fixtures';

/**
 * Bad input to any procedure gets a 4xx with a clear message and writes nothing. Valid inputs
 * are listed per procedure; the test derives wrong types, oversize strings and missing fields.
 */
let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
let tokenId: string;
let agent: AgentFixture;
let runId: string;
/** The run's root session. */
let sessionId: string;

const validInputs: Record<string, () => Record<string, unknown>> = {
  'account.changePassword': () => ({ currentPassword: 'correct horse battery', newPassword: 'a fresh long passphrase' }),
  'teams.create': () => ({ name: 'A team', slug: 'a-team' }),
  'teams.members': () => ({ teamId: fx.teamId }),
  'teams.invite': () => ({ teamId: fx.teamId, email: 'someone@example.test', role: 'viewer' }),
  'teams.invitations': () => ({ teamId: fx.teamId }),
  'teams.revokeInvitation': () => ({ teamId: fx.teamId, invitationId: 'inv-missing' }),
  'invitations.accept': () => ({ invitationId: 'inv-missing' }),
  'invitations.decline': () => ({ invitationId: 'inv-missing' }),
  'invitations.preview': () => ({ code: 'llpi_no-such-code-000' }),
  'invitations.signUp': () => ({ code: 'llpi_no-such-code-000', password: 'long enough pw', name: 'New Person' }),
  'teams.removeMember': () => ({ teamId: fx.teamId, userId: fx.members.viewer.id }),
  'teams.setRole': () => ({ teamId: fx.teamId, userId: fx.members.viewer.id, role: 'operator' }),
  'tokens.create': () => ({ teamId: fx.teamId, name: 'ci', role: 'viewer', expiresInDays: 30 }),
  'tokens.list': () => ({ teamId: fx.teamId }),
  'tokens.revoke': () => ({ teamId: fx.teamId, tokenId }),
  'agents.list': () => ({ teamId: fx.teamId }),
  'agents.get': () => ({ teamId: fx.teamId, agentId: agent.agentId }),
  'agents.endpointOptions': () => ({ teamId: fx.teamId }),
  'agents.create': () => ({
    teamId: fx.teamId,
    name: 'new-agent',
    endpointId: agent.endpointId,
    systemPrompt: 'Be brief.',
    busyPolicy: 'enqueue',
    maxConcurrentRuns: 3,
  }),
  'agents.update': () => ({ teamId: fx.teamId, agentId: agent.agentId, description: 'Sharper', expectedVersion: 1 }),
  'runs.create': () => ({ teamId: fx.teamId, agentId: agent.agentId, goal: 'Do the thing' }),
  'runs.get': () => ({ teamId: fx.teamId, runId }),
  'runs.list': () => ({ teamId: fx.teamId, text: 'thing', limit: 10, waitReason: ['approval'], finishedSince: '2026-01-01T00:00:00Z' }),
  'runs.events': () => ({ teamId: fx.teamId, runId, after: 5, limit: 100 }),
  'runs.cancel': () => ({ teamId: fx.teamId, runId }),
  'runs.sendMessage': () => ({ teamId: fx.teamId, runId, text: 'Also check the docs' }),
  'runs.raiseBudget': () => ({ teamId: fx.teamId, runId, tokens: 1000 }),
  'sessions.tree': () => ({ teamId: fx.teamId, runId }),
  'sessions.events': () => ({ teamId: fx.teamId, sessionId, after: 0, limit: 100 }),
  'sessions.fork': () => ({ teamId: fx.teamId, sessionId, atEvent: 1, message: 'Try another way' }),
  'sessions.replay': () => ({ teamId: fx.teamId, sessionId, atEvent: 1, systemPrompt: 'Be brief.', mode: 'stop' }),
  'sessions.resume': () => ({ teamId: fx.teamId, sessionId, message: 'Continue' }),
  'sessions.diff': () => ({ teamId: fx.teamId, a: sessionId, b: sessionId }),
  'sessions.promote': () => ({ teamId: fx.teamId, sessionId }),
  'sessions.files': () => ({ teamId: fx.teamId, sessionId, atEvent: 1, path: 'src/app.ts' }),
  'sessions.changes': () => ({ teamId: fx.teamId, sessionId }),
  'sessions.callDiff': () => ({ teamId: fx.teamId, sessionId, atEvent: 1 }),
  'approvals.list': () => ({ teamId: fx.teamId, status: 'pending', runId, limit: 20 }),
  'approvals.get': () => ({ teamId: fx.teamId, approvalId: 'apr-missing' }),
  'approvals.diff': () => ({ teamId: fx.teamId, approvalId: 'apr-missing' }),
  'approvals.decide': () => ({ teamId: fx.teamId, approvalId: 'apr-missing', decision: 'approve', comment: 'looks fine' }),
  'approvals.decideMany': () => ({ teamId: fx.teamId, approvalIds: ['apr-missing'], decision: 'reject', comment: 'not now' }),
  'policies.get': () => ({ teamId: fx.teamId }),
  'policies.versions': () => ({ teamId: fx.teamId }),
  'policies.save': () => ({ teamId: fx.teamId, document: 'version: 1\nname: strict\ndefault: deny\nrules: []\n', comment: 'lock down' }),
  'policies.validate': () => ({ teamId: fx.teamId, document: 'version: 1\nname: strict\ndefault: deny\nrules: []\n' }),
  'policies.simulate': () => ({ teamId: fx.teamId, tool: 'shell', args: { command: 'rm -rf /' } }),
  'policies.diff': () => ({ teamId: fx.teamId, from: 0, to: 0 }),
  'policies.backtest': () => ({
    teamId: fx.teamId,
    document: 'version: 1\nname: strict\ndefault: deny\nrules: []\n',
    since: '2026-11-01T00:00:00.000Z',
    until: '2026-12-01T00:00:00.000Z',
    limit: 5,
  }),
  'endpoints.list': () => ({ teamId: fx.teamId }),
  'endpoints.create': () => ({
    teamId: fx.teamId,
    name: 'local-llm',
    kind: 'openai',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'sk-test-12345678',
    model: 'small',
    inputMicrosPerMTok: 150_000,
    outputMicrosPerMTok: 600_000,
    contextWindow: 32_000,
    maxOutputTokens: 2048,
    timeoutMs: 30_000,
    maxRetries: 1,
  }),
  'endpoints.update': () => ({ teamId: fx.teamId, endpointId: agent.endpointId, name: 'renamed', model: 'faux-2', maxOutputTokens: 512 }),
  'endpoints.delete': () => ({ teamId: fx.teamId, endpointId: agent.endpointId }),
  'endpoints.test': () => ({ teamId: fx.teamId, endpointId: agent.endpointId }),
  'audit.list': () => ({ teamId: fx.teamId, action: 'policy.', actorType: 'user', targetType: 'policy', limit: 20, cursor: 100 }),
  'audit.verify': () => ({ teamId: fx.teamId }),
  'audit.export': () => ({ teamId: fx.teamId }),
  'system.sandbox': () => ({ teamId: fx.teamId }),
  'overview.get': () => ({ teamId: fx.teamId }),
  'costs.spend': () => ({ teamId: fx.teamId, days: 30 }),
  'costs.run': () => ({ teamId: fx.teamId, runId }),
  'mcp.list': () => ({ teamId: fx.teamId }),
  'mcp.add': () => ({ teamId: fx.teamId, name: 'files', transport: 'stdio', command: 'npx', args: ['server-filesystem'] }),
  'mcp.remove': () => ({ teamId: fx.teamId, serverId: 'mcp-missing' }),
  'mcp.refresh': () => ({ teamId: fx.teamId, serverId: 'mcp-missing' }),
  'secrets.list': () => ({ teamId: fx.teamId }),
  'secrets.create': () => ({ teamId: fx.teamId, name: 'GITHUB_TOKEN', value: 'ghp_example_value', replace: true }),
  'secrets.delete': () => ({ teamId: fx.teamId, name: 'GITHUB_TOKEN' }),
  'graphs.list': () => ({ teamId: fx.teamId }),
  'graphs.get': () => ({ teamId: fx.teamId, graphId: 'graph-missing', version: 1 }),
  'graphs.create': () => ({ teamId: fx.teamId, name: 'swarm', description: 'three agents', definition: graphDefinitionFor(agent.agentId) }),
  'graphs.update': () => ({ teamId: fx.teamId, graphId: 'graph-missing', expectedVersion: 1, definition: graphDefinitionFor(agent.agentId) }),
  'graphs.run': () => ({ teamId: fx.teamId, runId }),
  'graphs.raiseEdgeBudget': () => ({ teamId: fx.teamId, runId, edgeId: 'edge-missing', tokens: 1000 }),
  'policies.setShadow': () => ({ teamId: fx.teamId, version: 3 }),
  'policies.promoteShadow': () => ({ teamId: fx.teamId }),
  'policies.shadowDisagreements': () => ({ teamId: fx.teamId, cursor: 'cmshadowmissing', limit: 20 }),
  'webhooks.list': () => ({ teamId: fx.teamId }),
  'webhooks.get': () => ({ teamId: fx.teamId, webhookId: 'whk-missing' }),
  'webhooks.create': () => ({
    teamId: fx.teamId,
    url: 'https://hooks.example.test/looplane',
    events: ['run.finished', 'approval.requested'],
    description: 'ops channel',
  }),
  'webhooks.update': () => ({
    teamId: fx.teamId,
    webhookId: 'whk-missing',
    url: 'https://hooks.example.test/other',
    events: ['run.waiting'],
    description: 'moved',
    enabled: true,
  }),
  'webhooks.delete': () => ({ teamId: fx.teamId, webhookId: 'whk-missing' }),
  'webhooks.rotateSecret': () => ({ teamId: fx.teamId, webhookId: 'whk-missing' }),
  'webhooks.test': () => ({ teamId: fx.teamId, webhookId: 'whk-missing' }),
  'webhooks.deliveries': () => ({ teamId: fx.teamId, webhookId: 'whk-missing', cursor: 'msg_missing', limit: 20 }),
  'webhooks.redeliver': () => ({ teamId: fx.teamId, deliveryId: 'msg_missing' }),
};
const noInput = new Set(['me', 'teams.list', 'invitations.mine']);
/** Keys a procedure accepts without (so "missing" is not an error for them). */
const optionalKeys: Record<string, string[]> = {
  'invitations.signUp': ['name'],
  'tokens.create': ['expiresInDays'],
  'agents.create': ['systemPrompt', 'busyPolicy', 'maxConcurrentRuns'],
  'agents.update': ['description', 'expectedVersion'],
  'runs.list': ['text', 'limit', 'waitReason', 'finishedSince'],
  'runs.events': ['after', 'limit'],
  'sessions.events': ['after', 'limit'],
  'sessions.fork': ['message'],
  'sessions.replay': ['atEvent', 'endpointId', 'systemPrompt'],
  'sessions.files': ['atEvent', 'path'],
  'approvals.list': ['status', 'runId', 'limit'],
  'mcp.add': ['args'],
  'secrets.create': ['replace'],
  'costs.spend': ['days'],
  'approvals.decide': ['comment'],
  'approvals.decideMany': ['comment'],
  'policies.save': ['comment'],
  'policies.shadowDisagreements': ['cursor', 'limit'],
  'policies.backtest': ['until', 'limit'],
  'endpoints.create': ['baseUrl', 'apiKey', 'inputMicrosPerMTok', 'outputMicrosPerMTok', 'contextWindow', 'maxOutputTokens', 'timeoutMs', 'maxRetries'],
  'endpoints.update': ['name', 'model', 'maxOutputTokens'],
  'audit.list': ['action', 'actorType', 'targetType', 'limit', 'cursor'],
  'graphs.get': ['version'],
  'graphs.create': ['description'],
  'graphs.update': ['expectedVersion'],
  'webhooks.create': ['description'],
  'webhooks.update': ['url', 'events', 'description', 'enabled'],
  'webhooks.deliveries': ['cursor', 'limit'],
};

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

async function tableCounts(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'",
    );
    const counts: Record<string, number> = {};
    for (const { tablename } of tables.rows) {
      const r = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${tablename}"`);
      counts[tablename] = Number(r.rows[0]!.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

async function post(path: string, body: string | Uint8Array, userId: string | null = fx.members.admin.id) {
  const request = new Request(`http://localhost/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return handleTrpcRequest(request, { deps, endpoint: '/api/trpc', session: sessionOf(userId), ip: '127.0.0.1' });
}

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
  tokenId = (await issueToken(db.db, fx.teamId, fx.members.admin.id, 'viewer')).id;
  agent = await createAgentFixture(db.db, fx.teamId);
  runId = (await (await callerAs(deps, { userId: fx.members.admin.id })).runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'x' })).runId;
  sessionId = (await db.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } })).mainSessionId!;
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('bad input', () => {
  it('covers every procedure that takes input', () => {
    const all = Object.keys(appRouter._def.procedures);
    expect([...Object.keys(validInputs), ...noInput].sort()).toEqual(all.sort());
  });

  for (const [path, valid] of Object.entries(validInputs)) {
    it(`${path}: every malformed input gets 400 with a clear message and writes nothing`, async () => {
      const before = await tableCounts();
      const jobsBefore = (await live.jobs()).length;
      for (const [what, input] of variants(valid(), optionalKeys[path] ?? [])) {
        const isQuery = (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[path]?._def.type === 'query';
        const response = isQuery
          ? await handleTrpcRequest(new Request(`http://localhost/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`), {
              deps,
              endpoint: '/api/trpc',
              session: sessionOf(fx.members.admin.id),
              ip: null,
            })
          : await post(path, JSON.stringify(superjson.serialize(input)));
        const payload = (await response.json()) as { error?: { json?: { message?: string } } };
        expect(response.status, `${path} with ${what}`).toBe(400);
        expect(payload.error?.json?.message, `${path} with ${what}`).toMatch(/^Invalid input: /);
        expect(payload.error?.json?.message?.length ?? 0).toBeLessThan(1000);
      }
      expect(await tableCounts()).toEqual(before);
      expect((await live.jobs()).length).toBe(jobsBefore);
    });
  }

  it('sessions.files: unsafe paths and impossible events get 400 saying what is wrong, and read nothing', async () => {
    const before = await tableCounts();
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
      const input = { teamId: fx.teamId, sessionId, ...change };
      const response = await handleTrpcRequest(
        new Request(`http://localhost/api/trpc/sessions.files?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`),
        { deps, endpoint: '/api/trpc', session: sessionOf(fx.members.viewer.id), ip: null },
      );
      const payload = (await response.json()) as { error?: { json?: { message?: string } } };
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(payload.error?.json?.message, JSON.stringify(change).slice(0, 80)).toMatch(message);
    }
    // In range for the schema, past the session's log: the message names the range.
    const api = await callerAs(deps, { userId: fx.members.viewer.id });
    await expect(api.sessions.files({ teamId: fx.teamId, sessionId, atEvent: 7 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/no committed events yet|between 1 and/),
    });
    expect(await tableCounts()).toEqual(before);
  });

  it('malformed JSON gets 400 with a clear message', async () => {
    const before = await tableCounts();
    const response = await post('tokens.create', '{"json": {"teamId": ');
    expect(response.status).toBe(400);
    const payload = (await response.json()) as { error?: { json?: { message?: string } } };
    expect(payload.error?.json?.message).toMatch(/JSON|parse/i);
    expect(await tableCounts()).toEqual(before);
  });

  it('a body over the limit gets 413 before any parsing', async () => {
    const response = await post('tokens.create', new Uint8Array(MAX_BODY_BYTES + 1));
    expect(response.status).toBe(413);
    const payload = (await response.json()) as { error?: { json?: { message?: string } } };
    expect(payload.error?.json?.message).toMatch(/larger than/);
  });

  it(`a batch of more than ${MAX_BATCH_SIZE} calls gets 400 and runs none of them`, async () => {
    const before = await tableCounts();
    const input = superjson.serialize(validInputs['tokens.create']!());
    const calls = MAX_BATCH_SIZE + 1;
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), input])));
    const response = await post(`${Array(calls).fill('tokens.create').join(',')}?batch=1`, body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/Batch call exceeds maximum size/);
    expect(await tableCounts()).toEqual(before);
    // At the cap, the batch runs.
    const atCap = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_BATCH_SIZE }, (_, i) => [String(i), input])));
    expect((await post(`${Array(MAX_BATCH_SIZE).fill('tokens.create').join(',')}?batch=1`, atCap)).status).toBe(200);
  });

  it('a valid call still works through the same handler', async () => {
    const response = await post('tokens.create', JSON.stringify(superjson.serialize(validInputs['tokens.create']!())));
    expect(response.status).toBe(200);
  });

  it('a revoked token gets 401', async () => {
    const token = await issueToken(db.db, fx.teamId, fx.members.admin.id, 'admin');
    const me = () =>
      handleTrpcRequest(new Request('http://localhost/api/trpc/me', { headers: { authorization: `Bearer ${token.secret}` } }), {
        deps,
        endpoint: '/api/trpc',
        session: null,
        ip: null,
      });
    expect((await me()).status).toBe(200);
    await db.db.apiToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } });
    expect((await me()).status).toBe(401);
  });
});
