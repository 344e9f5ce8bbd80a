import { randomBytes } from 'node:crypto';
import { encode, getToken } from 'next-auth/jwt';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateApiToken, SecretBox } from '@looplane/db';
import { craftedTar } from '@looplane/workspaces/testing';
import { roleAtLeast, ROLES, type Role } from '@looplane/shared';
import { handleTrpcRequest } from '../http';
import { dbFingerprints } from '../testing/db-fingerprint';
import { createUser, issueToken } from '../testing/fixtures';
import { problemOf, restClient, type RestReply, type RestRequest } from '../testing/rest-client';
import { restWithFiles } from '../testing/rest-files';
import { restTestbed } from '../testing/rest-testbed';
import { teamResources, type TeamResources } from '../testing/team-resources';
import { restRoutes } from './routes';
import { approvalPage } from './schemas/approvals.schemas';
import { runPage } from './schemas/runs.schemas';
import { skillName, skillOf } from '../routers/skills.fixtures';
import { scheduleOf } from '../routers/schedules.fixtures';
import { triggerName, triggerOf } from '../routers/triggers.fixtures';

/**
 * The REST authorization matrix: every route of `/api/v1` × every kind of caller, over real HTTP.
 * Only a team API token counts (never the dashboard's cookie); a token reaches only its own
 * team; each role reaches what the route's procedure allows it. A route without an entry here
 * fails the first test, so nothing is served unchecked.
 */
interface Entry {
  /** The least role that may call it, stated here independently of the route table. */
  role: Role;
  /**
   * A valid request against team `r`'s resources, as `actorId`'s token would send it; a fresh
   * resource where a success uses one up. A request naming a resource (a path parameter, an
   * `…Id` in its body or query) is also made with another team's token, and must be 404.
   */
  request(r: TeamResources, actorId: string): RestRequest | Promise<RestRequest>;
}

let n = 0;
const matrix: Record<string, Entry> = {
  getMe: { role: 'viewer', request: () => ({}) },
  createRun: { role: 'operator', request: (r) => ({ body: { agentId: r.agent.agentId, goal: 'matrix run' } }) },
  listRuns: { role: 'viewer', request: () => ({ query: { limit: 5 } }) },
  getRun: { role: 'viewer', request: (r) => ({ params: { runId: r.runId } }) },
  cancelRun: { role: 'operator', request: async (r) => ({ params: { runId: await r.freshRun() } }) },
  sendRunMessage: { role: 'operator', request: (r) => ({ params: { runId: r.runId }, body: { text: 'hello' } }) },
  raiseRunBudget: { role: 'approver', request: (r) => ({ params: { runId: r.runId }, body: { tokens: 100 } }) },
  listRunEvents: { role: 'viewer', request: (r) => ({ params: { runId: r.runId } }) },
  listApprovals: { role: 'viewer', request: () => ({ query: { status: 'pending' } }) },
  getApproval: { role: 'viewer', request: async (r) => ({ params: { approvalId: await r.pendingApproval() } }) },
  decideApproval: {
    role: 'approver',
    request: async (r) => ({ params: { approvalId: await r.pendingApproval() }, body: { decision: 'reject', comment: 'matrix' } }),
  },
  listAgents: { role: 'viewer', request: () => ({}) },
  getAgent: { role: 'viewer', request: (r) => ({ params: { agentId: r.agent.agentId } }) },
  updateAgent: { role: 'operator', request: (r) => ({ params: { agentId: r.agent.agentId }, body: { description: `edit ${n++}` } }) },
  listGraphs: { role: 'viewer', request: () => ({}) },
  getGraph: { role: 'viewer', request: async (r) => ({ params: { graphId: (await r.graph()).graphId } }) },
  runGraph: { role: 'operator', request: async (r) => ({ params: { graphId: (await r.graph()).graphId }, body: { goal: 'matrix graph run' } }) },
  forkSession: { role: 'operator', request: async (r) => ({ params: { sessionId: await r.startedSession() }, body: { atEvent: 1 } }) },
  replaySession: {
    role: 'operator',
    request: async (r) => ({ params: { sessionId: await r.startedSession() }, body: { atEvent: 1, systemPrompt: 'Be brief.', mode: 'stop' } }),
  },
  resumeSession: { role: 'operator', request: async (r) => ({ params: { sessionId: await r.finishedSession() }, body: { message: 'go on' } }) },
  getSessionFiles: { role: 'viewer', request: async (r) => ({ params: { sessionId: await r.startedSession() } }) },
  getSessionPatch: { role: 'viewer', request: async (r) => ({ params: { sessionId: await r.seededSession() } }) },
  restoreSession: { role: 'operator', request: async (r) => ({ params: { sessionId: await r.startedSession() }, body: { atEvent: 1, paths: ['a.txt'] } }) },
  exportAudit: { role: 'admin', request: () => ({}) },
  listTokens: { role: 'viewer', request: () => ({}) },
  createToken: { role: 'operator', request: () => ({ body: { name: `matrix-${n++}`, role: 'viewer' } }) },
  // A token the caller's own member made, so only the role decides.
  revokeToken: { role: 'operator', request: async (r, actorId) => ({ params: { tokenId: await r.tokenOf(actorId) } }) },
  listMcpServers: { role: 'viewer', request: () => ({}) },
  addMcpServer: { role: 'admin', request: () => ({ body: { name: `matrix-${n++}`, transport: 'stdio', command: 'true' } }) },
  refreshMcpServer: { role: 'admin', request: async (r) => ({ params: { serverId: await r.mcpServer() } }) },
  removeMcpServer: { role: 'admin', request: async (r) => ({ params: { serverId: await r.mcpServer() } }) },
  // The archive as its raw bytes; a caller refused is refused before they are read.
  createUpload: {
    role: 'operator',
    request: () => ({ body: new Uint8Array(craftedTar([{ name: `matrix-${n++}.txt`, content: 'x' }])), headers: { 'content-type': 'application/x-tar' } }),
  },
  getUpload: { role: 'viewer', request: async (r) => ({ params: { uploadId: await r.upload() } }) },
  listSkills: { role: 'viewer', request: () => ({ query: { archived: 'true' } }) },
  createSkill: { role: 'operator', request: () => ({ body: { name: skillName(), description: 'Matrix skill.', instructions: 'Be careful.' } }) },
  getSkill: { role: 'viewer', request: async (r) => ({ params: { skillId: await skillOf(rest.tb.db, r.teamId) } }) },
  updateSkill: { role: 'operator', request: async (r) => ({ params: { skillId: await skillOf(rest.tb.db, r.teamId) }, body: { description: 'Edited.' } }) },
  archiveSkill: { role: 'operator', request: async (r) => ({ params: { skillId: await skillOf(rest.tb.db, r.teamId) }, body: {} }) },
  listSchedules: { role: 'viewer', request: () => ({}) },
  createSchedule: {
    role: 'operator',
    request: (r) => ({ body: { name: `matrix-schedule-new-${n++}`, agentId: r.agent.agentId, everySeconds: 3600, goal: 'matrix tick' } }),
  },
  getSchedule: {
    role: 'viewer',
    request: async (r) => ({ params: { scheduleId: await scheduleOf(rest.tb.db, r.teamId, r.agent.agentId) }, query: { ticks: 5 } }),
  },
  updateSchedule: {
    role: 'operator',
    request: async (r) => ({ params: { scheduleId: await scheduleOf(rest.tb.db, r.teamId, r.agent.agentId) }, body: { goal: `edit ${n++}` } }),
  },
  deleteSchedule: { role: 'operator', request: async (r) => ({ params: { scheduleId: await scheduleOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  pauseSchedule: { role: 'operator', request: async (r) => ({ params: { scheduleId: await scheduleOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  resumeSchedule: { role: 'operator', request: async (r) => ({ params: { scheduleId: await scheduleOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  runScheduleNow: { role: 'operator', request: async (r) => ({ params: { scheduleId: await scheduleOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  listTriggers: { role: 'viewer', request: () => ({}) },
  createTrigger: {
    role: 'admin',
    request: (r) => ({ body: { name: triggerName(), target: { type: 'start_run', agentId: r.agent.agentId, goalTemplate: 'Handle {{payload.text}}' } } }),
  },
  getTrigger: { role: 'viewer', request: async (r) => ({ params: { triggerId: await triggerOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  updateTrigger: {
    role: 'admin',
    request: async (r) => ({ params: { triggerId: await triggerOf(rest.tb.db, r.teamId, r.agent.agentId) }, body: { enabled: false } }),
  },
  deleteTrigger: { role: 'admin', request: async (r) => ({ params: { triggerId: await triggerOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  rotateTriggerSecret: { role: 'admin', request: async (r) => ({ params: { triggerId: await triggerOf(rest.tb.db, r.teamId, r.agent.agentId) } }) },
  listTriggerDeliveries: {
    role: 'viewer',
    request: async (r) => ({ params: { triggerId: await triggerOf(rest.tb.db, r.teamId, r.agent.agentId) }, query: { limit: 5 } }),
  },
};

type BadToken = 'malformed' | 'empty' | 'unknown' | 'revoked' | 'expired' | 'basic';
type Who =
  | { kind: 'signedOut' }
  | { kind: 'badToken'; what: BadToken }
  | { kind: 'cookie' }
  | { kind: 'cookieAndBadToken' }
  | { kind: 'formerMember' }
  | { kind: 'otherTeam' }
  | { kind: 'token'; role: Role };

const callers: Who[] = [
  { kind: 'signedOut' },
  ...(['malformed', 'empty', 'unknown', 'revoked', 'expired', 'basic'] as const).map((what) => ({ kind: 'badToken', what }) as const),
  { kind: 'cookie' },
  { kind: 'cookieAndBadToken' },
  { kind: 'formerMember' },
  { kind: 'otherTeam' },
  ...ROLES.map((role) => ({ kind: 'token', role }) as const),
];

function label(who: Who): string {
  if (who.kind === 'token') return `a ${who.role} token`;
  if (who.kind === 'badToken') return `a ${who.what} token`;
  return {
    signedOut: 'signed out',
    cookie: 'the session cookie alone',
    cookieAndBadToken: 'the session cookie and a bad token',
    formerMember: 'the token of a former member',
    otherTeam: 'another team’s token',
  }[who.kind];
}

const SEND_TOKEN = 'Send a team API token: Authorization: Bearer llp_…';
const BAD_TOKEN = 'The API token is invalid, revoked or expired';

const rest = restTestbed({
  deps: { secretBox: new SecretBox(randomBytes(32).toString('base64')), runLimits: { perMinute: 0, maxQueued: 0 }, webhooks: { allowPrivate: true } },
});
// Its server reads session files, so `getSessionFiles` can succeed.
const files = restWithFiles(rest);
const fingerprints = () => dbFingerprints(rest.tb.db);
let url: string;
let own: TeamResources;
let foreign: TeamResources;
const secrets = {} as Record<BadToken | 'formerMember' | 'otherTeam', string>;
/** The dashboard's session cookie of this team's admin, as next-auth sets it at sign-in. */
let cookie: string;
const COOKIE_SECRET = randomBytes(32).toString('hex');

beforeAll(async () => {
  const { db, fx } = rest.tb;
  url = files.url;
  own = await teamResources(files.deps, fx.teamId, fx.members.admin.id);
  foreign = await teamResources(files.deps, fx.otherTeamId, fx.outsider.id);

  secrets.malformed = 'Bearer not-a-token';
  secrets.empty = 'Bearer ';
  secrets.unknown = `Bearer ${generateApiToken()}`;
  secrets.basic = `Basic ${Buffer.from(`${fx.members.admin.email}:x`).toString('base64')}`;
  const revoked = await issueToken(db, fx.teamId, fx.members.admin.id, 'admin');
  await db.apiToken.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
  secrets.revoked = `Bearer ${revoked.secret}`;
  const expired = await issueToken(db, fx.teamId, fx.members.admin.id, 'admin');
  await db.apiToken.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  secrets.expired = `Bearer ${expired.secret}`;
  const leaver = await createUser(db, 'leaver');
  await db.membership.create({ data: { teamId: fx.teamId, userId: leaver.id, role: 'admin' } });
  secrets.formerMember = (await issueToken(db, fx.teamId, leaver.id, 'admin')).secret;
  await db.membership.delete({ where: { teamId_userId: { teamId: fx.teamId, userId: leaver.id } } });
  secrets.otherTeam = (await issueToken(db, fx.otherTeamId, fx.outsider.id, 'admin')).secret;

  // The claims the web's jwt callback writes: the user and the session version of the sign-in.
  const jwt = await encode({ token: { sub: fx.members.admin.id, email: fx.members.admin.email, sv: 0 }, secret: COOKIE_SECRET });
  cookie = `next-auth.session-token=${jwt}`;
});

/** The request as `who` sends it; the actor is whose token it is (for resources only its member may use). */
function client(who: Who): { api: ReturnType<typeof restClient>; actorId: string; headers: Record<string, string> } {
  const { fx } = rest.tb;
  switch (who.kind) {
    case 'token':
      return { api: restClient(url, rest.token(who.role)), actorId: fx.members[who.role].id, headers: {} };
    case 'formerMember':
    case 'otherTeam':
      return { api: restClient(url, secrets[who.kind]), actorId: fx.members.admin.id, headers: {} };
    case 'badToken':
      return { api: restClient(url, null), actorId: fx.members.admin.id, headers: { authorization: secrets[who.what] } };
    case 'cookie':
      return { api: restClient(url, null), actorId: fx.members.admin.id, headers: { cookie } };
    case 'cookieAndBadToken':
      return { api: restClient(url, null), actorId: fx.members.admin.id, headers: { cookie, authorization: secrets.malformed } };
    case 'signedOut':
      return { api: restClient(url, null), actorId: fx.members.admin.id, headers: {} };
  }
}

/** Whether a request names one of a team's resources (another team's token must then get 404). */
function namesResource(request: RestRequest): boolean {
  // Body keys at any depth: a trigger's target names its agent inside `target`.
  const bodyKeys = (value: unknown): string[] =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value).flatMap(([key, inner]) => [key, ...bodyKeys(inner)]) : [];
  const keys = [...Object.keys(request.params ?? {}), ...Object.keys(request.query ?? {}), ...bodyKeys(request.body)];
  return keys.some((key) => key.endsWith('Id'));
}

function expectSuccess(operationId: string, reply: RestReply, what: string) {
  const route = restRoutes.find((r) => r.operationId === operationId)!;
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(route.status);
  expect(reply.headers.get('content-type')).toBe(route.download?.mediaType ?? 'application/json');
  const parsed = route.response.safeParse(reply.body);
  expect(parsed.success, `${what}: ${parsed.error?.message}`).toBe(true);
}

describe('the REST authorization matrix', () => {
  it('has an entry for every route, at the role its procedure requires', () => {
    expect(Object.keys(matrix).sort()).toEqual(restRoutes.map((r) => r.operationId).sort());
    for (const route of restRoutes) expect(matrix[route.operationId]?.role, route.operationId).toBe(route.role);
  });

  it('the cookie the tests send is a live dashboard session: tRPC accepts it', async () => {
    const claims = await getToken({
      req: { cookies: { getAll: () => [{ name: 'next-auth.session-token', value: cookie.split('=')[1]! }] }, headers: new Headers() } as never,
      secret: COOKIE_SECRET,
    });
    expect(claims).toMatchObject({ sub: rest.tb.fx.members.admin.id, sv: 0 });
    const response = await handleTrpcRequest(new Request('http://localhost/api/trpc/me', { headers: { cookie } }), {
      deps: files.deps,
      endpoint: '/api/trpc',
      session: { userId: claims!.sub!, sessionVersion: claims!.sv as number },
      ip: null,
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain(rest.tb.fx.members.admin.id);
  });

  for (const [operationId, entry] of Object.entries(matrix)) {
    for (const who of callers) {
      const allowed = who.kind === 'token' && roleAtLeast(who.role, entry.role);
      it(`${operationId} with ${label(who)}`, async () => {
        const { api, actorId, headers } = client(who);
        const request = await entry.request(own, actorId);
        const what = `${operationId} with ${label(who)}`;
        const send = () => api.call(operationId, { ...request, headers: { ...request.headers, ...headers } });
        if (allowed) return expectSuccess(operationId, await send(), what);

        const db = fingerprints();
        if (who.kind === 'otherTeam' && !namesResource(request)) {
          // Nothing to name: it acts on its own team, and shows or changes nothing of this one.
          const before = await db.team(own.teamId);
          const reply = await send();
          expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
          const text = JSON.stringify(reply.body);
          for (const id of await db.teamIds(own.teamId)) expect(text.includes(id), `${what} shows ${id}`).toBe(false);
          expect(await db.team(own.teamId)).toEqual(before);
          return;
        }
        const before = await db.all();
        const jobs = (await rest.tb.live.jobs()).length;
        const reply = await send();
        if (who.kind === 'token') {
          expect(problemOf(reply, 403, 'FORBIDDEN').detail).toBe(`This action needs the ${entry.role} role; you are ${who.role}`);
        } else if (who.kind === 'formerMember') {
          expect(problemOf(reply, 403, 'FORBIDDEN').detail).toBe('The token’s owner is no longer a member of its team');
        } else if (who.kind === 'otherTeam') {
          problemOf(reply, 404, 'NOT_FOUND');
        } else {
          expect(problemOf(reply, 401, 'UNAUTHORIZED').detail).toBe(who.kind === 'signedOut' || who.kind === 'cookie' ? SEND_TOKEN : BAD_TOKEN);
          expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="looplane"');
        }
        expect(await db.all(), `${what} wrote`).toEqual(before);
        expect((await rest.tb.live.jobs()).length).toBe(jobs);
      });
    }
  }
});

/** Routes that take a resource id: a path parameter, or an `…Id` field of the body (createRun's agentId). */
const takingIds = restRoutes.filter((r) => r.params !== null || (r.body instanceof z.ZodObject && Object.keys(r.body.shape).some((key) => key.endsWith('Id'))));

describe('this team’s token on another team’s resources', () => {
  for (const route of takingIds) {
    it(`${route.operationId} with the other team’s resource: 404, and nothing written`, async () => {
      const request = await matrix[route.operationId]!.request(foreign, rest.tb.fx.outsider.id);
      expect(namesResource(request)).toBe(true);
      const db = fingerprints();
      const before = await db.all();
      problemOf(await restClient(url, rest.token('admin')).call(route.operationId, request), 404, 'NOT_FOUND');
      expect(await db.all()).toEqual(before);
    });
  }

  it('list filters naming another team’s run, agent or member find nothing', async () => {
    const api = restClient(url, secrets.otherTeam);
    const { fx } = rest.tb;
    // Filters that name this team's things, sent with the other team's token: 200 and an empty page.
    expect(runPage.parse((await api.call('listRuns', { query: { agentId: own.agent.agentId } })).body).runs).toEqual([]);
    expect(runPage.parse((await api.call('listRuns', { query: { createdById: fx.members.admin.id } })).body).runs).toEqual([]);
    expect(approvalPage.parse((await api.call('listApprovals', { query: { runId: own.runId } })).body).items).toEqual([]);
    // The same filters work for this team (the pages above are empty for the team, not for the filter).
    const mine = restClient(url, rest.token('viewer'));
    expect(runPage.parse((await mine.call('listRuns', { query: { agentId: own.agent.agentId } })).body).runs.length).toBeGreaterThan(0);
    expect(approvalPage.parse((await mine.call('listApprovals', { query: { runId: own.runId } })).body).items.length).toBeGreaterThan(0);
  });

  it('the other team’s run and agent are untouched, and nothing failed inside', async () => {
    const run = await rest.tb.db.run.findUniqueOrThrow({ where: { id: foreign.runId } });
    expect(run.cancelRequestedAt).toBeNull();
    expect(await rest.tb.db.inboxMessage.count({ where: { runId: foreign.runId } })).toBe(0);
    expect((await rest.tb.db.agentTemplate.findUniqueOrThrow({ where: { id: foreign.agent.agentId } })).version).toBe(1);
    expect(rest.tb.live.errors).toEqual([]);
  });
});
