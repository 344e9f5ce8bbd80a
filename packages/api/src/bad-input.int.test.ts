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
import { fixtureArchive } from './routers/uploads.fixtures';

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
    workspace: { archive: { uploadId: 'upl-missing' } },
  }),
  'agents.update': () => ({ teamId: fx.teamId, agentId: agent.agentId, description: 'Sharper', expectedVersion: 1 }),
  'runs.create': () => ({
    teamId: fx.teamId,
    agentId: agent.agentId,
    goal: 'Do the thing',
    workspace: { git: { url: 'https://git.example.test/a.git', ref: 'main' } },
  }),
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
  'sessions.restore': () => ({ teamId: fx.teamId, sessionId, atEvent: 1, paths: ['src/app.ts'] }),
  'sessions.patch': () => ({ teamId: fx.teamId, sessionId, base: 1, whole: true }),
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
    baseUrl: 'http://10.0.0.9:8000/v1',
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
  'secrets.create': () => ({
    teamId: fx.teamId,
    name: 'GITHUB_TOKEN',
    kind: 'token',
    value: 'ghp_example_value',
    username: 'x-access-token',
    forge: 'github',
    apiUrl: 'https://api.github.com',
    replace: true,
  }),
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
  // Over HTTP, bytes never arrive as bytes: every variant (and the valid input too) is refused.
  'uploads.create': () => ({ teamId: fx.teamId, filename: 'seed.tar.gz', data: fixtureArchive() }),
  'uploads.get': () => ({ teamId: fx.teamId, uploadId: 'upl-missing' }),
  'skills.list': () => ({ teamId: fx.teamId, archived: false }),
  'skills.get': () => ({ teamId: fx.teamId, skillId: 'skl-missing' }),
  'skills.create': () => ({
    teamId: fx.teamId,
    name: 'quote-drafting',
    description: 'Drafts quotes from the catalogue.',
    instructions: '# Quotes\nUse EUR.',
    files: [{ path: 'quotes/rules.md', content: 'Round up.' }],
  }),
  'skills.update': () => ({ teamId: fx.teamId, skillId: 'skl-missing', description: 'Sharper', expectedVersion: 1 }),
  'skills.archive': () => ({ teamId: fx.teamId, skillId: 'skl-missing', archived: true }),
  'schedules.list': () => ({ teamId: fx.teamId }),
  'schedules.get': () => ({ teamId: fx.teamId, scheduleId: 'sch-missing', ticks: 10 }),
  'schedules.create': () => ({ teamId: fx.teamId, name: 'nightly', agentId: 'agt-missing', everySeconds: 60, goal: 'report at {{scheduledAt}}' }),
  'schedules.update': () => ({ teamId: fx.teamId, scheduleId: 'sch-missing', goal: 'report' }),
  'schedules.pause': () => ({ teamId: fx.teamId, scheduleId: 'sch-missing' }),
  'schedules.resume': () => ({ teamId: fx.teamId, scheduleId: 'sch-missing' }),
  'schedules.delete': () => ({ teamId: fx.teamId, scheduleId: 'sch-missing' }),
  'schedules.runNow': () => ({ teamId: fx.teamId, scheduleId: 'sch-missing' }),
  'triggers.list': () => ({ teamId: fx.teamId }),
  'triggers.get': () => ({ teamId: fx.teamId, triggerId: 'trg-missing' }),
  'triggers.create': () => ({
    teamId: fx.teamId,
    name: 'inbox',
    target: { type: 'start_run', agentId: 'agt-missing', goalTemplate: 'Quote for {{payload.mail.subject}}' },
    auth: 'bearer',
    rateLimitPerMinute: 60,
    enabled: true,
  }),
  'triggers.update': () => ({ teamId: fx.teamId, triggerId: 'trg-missing', goalTemplate: 'Quote {{payload}}', rateLimitPerMinute: 30, enabled: false }),
  'triggers.rotateSecret': () => ({ teamId: fx.teamId, triggerId: 'trg-missing' }),
  'triggers.delete': () => ({ teamId: fx.teamId, triggerId: 'trg-missing' }),
  'triggers.deliveries': () => ({ teamId: fx.teamId, triggerId: 'trg-missing', cursor: 'dlv-missing', limit: 20 }),
};
const noInput = new Set(['me', 'teams.list', 'invitations.mine']);
/** Keys a procedure accepts without (so "missing" is not an error for them). */
const optionalKeys: Record<string, string[]> = {
  'invitations.signUp': ['name'],
  'tokens.create': ['expiresInDays'],
  'agents.create': ['systemPrompt', 'busyPolicy', 'maxConcurrentRuns', 'workspace'],
  'runs.create': ['workspace'],
  'agents.update': ['description', 'expectedVersion'],
  'runs.list': ['text', 'limit', 'waitReason', 'finishedSince'],
  'runs.events': ['after', 'limit'],
  'sessions.events': ['after', 'limit'],
  'sessions.fork': ['message'],
  'sessions.replay': ['atEvent', 'endpointId', 'systemPrompt'],
  'sessions.files': ['atEvent', 'path'],
  'sessions.restore': ['paths'],
  'sessions.patch': ['base', 'whole'],
  'approvals.list': ['status', 'runId', 'limit'],
  'mcp.add': ['args'],
  'secrets.create': ['kind', 'username', 'forge', 'apiUrl', 'replace'],
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
  'uploads.create': ['filename'],
  'skills.list': ['archived'],
  'skills.create': ['files'],
  'skills.update': ['description', 'expectedVersion'],
  'skills.archive': ['archived'],
  'schedules.get': ['ticks'],
  'schedules.update': ['goal'],
  'triggers.create': ['auth', 'rateLimitPerMinute', 'enabled'],
  'triggers.update': ['goalTemplate', 'rateLimitPerMinute', 'enabled'],
  'triggers.deliveries': ['cursor', 'limit'],
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

  it('endpoints.create and endpoints.update: a base URL no model endpoint may reach gets 400 saying why, and writes nothing', async () => {
    const before = await tableCounts();
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
        ['endpoints.create', { ...validInputs['endpoints.create']!(), baseUrl }],
        ['endpoints.update', { teamId: fx.teamId, endpointId: agent.endpointId, baseUrl }],
      ] as const) {
        const response = await post(path, JSON.stringify(superjson.serialize(input)));
        const payload = (await response.json()) as { error?: { json?: { message?: string } } };
        expect(response.status, `${path} with ${baseUrl}`).toBe(400);
        expect(payload.error?.json?.message, `${path} with ${baseUrl}`).toMatch(message);
      }
    }
    expect(await tableCounts()).toEqual(before);
  });

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

  it('sessions.restore: unsafe or impossible paths, and events outside the log, get 400 saying what is wrong, and write nothing', async () => {
    const before = await tableCounts();
    const jobsBefore = (await live.jobs()).length;
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
      const input = { teamId: fx.teamId, sessionId, atEvent: 1, ...change };
      const response = await handleTrpcRequest(
        new Request('http://localhost/api/trpc/sessions.restore', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(superjson.serialize(input)),
        }),
        { deps, endpoint: '/api/trpc', session: sessionOf(fx.members.operator.id), ip: null },
      );
      const payload = (await response.json()) as { error?: { json?: { message?: string } } };
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(payload.error?.json?.message, JSON.stringify(change).slice(0, 80)).toMatch(message);
    }
    // In range for the schema, past the session's log: the message names the range.
    const api = await callerAs(deps, { userId: fx.members.operator.id });
    await expect(api.sessions.restore({ teamId: fx.teamId, sessionId, atEvent: 7 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/no committed events yet|between 1 and/),
    });
    expect(await tableCounts()).toEqual(before);
    expect((await live.jobs()).length).toBe(jobsBefore);
  });

  it('a bad workspace for runs.create, agents.create/update or a graph node gets a 4xx saying what is wrong, and writes nothing', async () => {
    const other = await createAgentFixture(db.db, fx.otherTeamId);
    const theirs = await (await callerAs(deps, { userId: fx.outsider.id })).runs.create({ teamId: fx.otherTeamId, agentId: other.agentId, goal: 'theirs' });
    const theirSession = (await db.db.run.findUniqueOrThrow({ where: { id: theirs.runId }, select: { mainSessionId: true } })).mainSessionId!;
    const before = await tableCounts();
    const jobsBefore = (await live.jobs()).length;
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
      ['runs.create', { teamId: fx.teamId, agentId: agent.agentId, goal: 'g', workspace }],
      ['agents.create', { teamId: fx.teamId, name: 'ws-agent', endpointId: agent.endpointId, workspace }],
      ['agents.update', { teamId: fx.teamId, agentId: agent.agentId, workspace }],
      [
        'graphs.create',
        { teamId: fx.teamId, name: 'ws-graph', definition: { root: 'a', nodes: [{ key: 'a', agentId: agent.agentId, workspace }], edges: [] } },
      ],
    ];
    for (const [workspace, status, message] of cases) {
      for (const [path, input] of calls(workspace)) {
        const response = await post(path, JSON.stringify(superjson.serialize(input)));
        const payload = (await response.json()) as { error?: { json?: { message?: string } } };
        const what = `${path} with ${JSON.stringify(workspace)}`;
        expect(response.status, what).toBe(status);
        // A graph node's field is named by its path in the definition (or the node, for the checks after the schema).
        const said = payload.error?.json?.message?.replace(/^node a: /, '').replace('definition.nodes.0.workspace', 'workspace');
        expect(said, what).toMatch(message);
      }
    }
    expect(await tableCounts()).toEqual(before);
    expect((await live.jobs()).length).toBe(jobsBefore);
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
