import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { roleAtLeast, ROLES, type Role } from '@looplane/shared';
import { appRouter } from './root';
import type { Meta } from './trpc';
import type { ApiDeps } from './context';
import { createPgPool, SecretBox, type PgPool } from '@looplane/db';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  callerAs,
  createAgentFixture,
  createTeamFixture,
  createUser,
  issueToken,
  TEST_PASSWORD,
  type AgentFixture,
  type TeamFixture,
} from './testing/fixtures';
import { createTestLive, type TestLive } from './testing/live';
import { graphDefinitionFor, graphFixture, graphName } from './routers/graphs.fixtures';
import { createInvitation } from './testing/invitations';
import { webhookCrossTeam, webhookMatrix } from './routers/webhooks.fixtures';
import { uploadCrossTeam, uploadMatrix } from './routers/uploads.fixtures';
import { skillCrossTeam, skillMatrix } from './routers/skills.fixtures';
import { scheduleCrossTeam, scheduleMatrix } from './routers/schedules.fixtures';
import { triggerCrossTeam, triggerMatrix } from './routers/triggers.fixtures';
import { policyMatrix } from './routers/policies.fixtures';
import { appendCommittedCall, appendSeed, beginSessionLog, finishSessionLog, openApproval } from './routers/sessions.fixtures';

/**
 * The authorization matrix: every procedure of the router × every kind of caller. A procedure
 * without an entry here fails the first test, so nothing ships unchecked.
 */
type Who = { kind: 'signedOut' } | { kind: 'outsider' } | { kind: 'member'; role: Role } | { kind: 'token'; role: Role };

interface Entry {
  /** Minimum access, stated independently of the router's own metadata. */
  access: 'public' | 'authed' | Role;
  /** Team-less procedures that API tokens may not use. */
  tokensDenied?: boolean;
  input: (fx: TeamFixture, caller: { userId: string } | null) => Promise<unknown> | unknown;
}

let n = 0;
const matrix: Record<string, Entry> = {
  me: { access: 'authed', input: () => undefined },
  // Each member changes their own password once; later cases sign in afresh (callerAs).
  'account.changePassword': {
    access: 'authed',
    tokensDenied: true,
    input: () => ({ currentPassword: TEST_PASSWORD, newPassword: `matrix passphrase ${n++}` }),
  },
  'teams.list': { access: 'authed', input: () => undefined },
  'teams.create': {
    access: 'authed',
    tokensDenied: true,
    input: () => ({ name: 'New team', slug: `matrix-${Date.now()}-${n++}` }),
  },
  'teams.members': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'teams.invite': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, email: `invited-${Date.now()}-${n++}@example.test`, role: 'viewer' }) },
  'teams.invitations': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
  'teams.revokeInvitation': {
    access: 'admin',
    input: async (fx) => ({ teamId: fx.teamId, invitationId: (await createInvitation(db.db, { teamId: fx.teamId })).id }),
  },
  'invitations.mine': { access: 'authed', tokensDenied: true, input: () => undefined },
  'invitations.accept': {
    access: 'authed',
    tokensDenied: true,
    input: async (_fx, caller) => ({ invitationId: (await createInvitation(db.db, { userId: caller?.userId })).id }),
  },
  'invitations.decline': {
    access: 'authed',
    tokensDenied: true,
    input: async (_fx, caller) => ({ invitationId: (await createInvitation(db.db, { userId: caller?.userId })).id }),
  },
  'invitations.preview': { access: 'public', input: async () => ({ code: (await createInvitation(db.db)).code }) },
  'invitations.signUp': { access: 'public', input: async () => ({ code: (await createInvitation(db.db)).code, password: 'long enough pw' }) },
  'teams.removeMember': {
    access: 'admin',
    input: async (fx) => {
      const user = await createUser(db.db, 'removable');
      await db.db.membership.create({ data: { teamId: fx.teamId, userId: user.id, role: 'viewer' } });
      return { teamId: fx.teamId, userId: user.id };
    },
  },
  'teams.setRole': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, userId: fx.members.viewer.id, role: 'viewer' }) },
  'tokens.create': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, name: 'matrix', role: 'viewer' }) },
  'tokens.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'tokens.revoke': {
    access: 'operator',
    // A token of the caller's own (so only the role decides), or the admin's for strangers.
    input: async (fx, caller) => ({
      teamId: fx.teamId,
      tokenId: (await issueToken(db.db, fx.teamId, caller?.userId ?? fx.members.admin.id, 'viewer')).id,
    }),
  },
  'agents.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'agents.get': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, agentId: agent.agentId }) },
  'agents.endpointOptions': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'agents.create': {
    access: 'operator',
    input: (fx) => ({ teamId: fx.teamId, name: `matrix-${Date.now()}-${n++}`, endpointId: agent.endpointId }),
  },
  'agents.update': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, agentId: agent.agentId, description: `edit ${n++}` }) },
  'runs.create': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, agentId: agent.agentId, goal: 'matrix run' }) },
  'runs.get': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId }) },
  'runs.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'runs.events': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId }) },
  // A fresh run per call, so each allowed cancel is a first one.
  'runs.cancel': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, runId: await startRun(fx.teamId, agent.agentId) }) },
  'runs.sendMessage': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, runId, text: 'hello' }) },
  'runs.raiseBudget': { access: 'approver', input: (fx) => ({ teamId: fx.teamId, runId, tokens: 100 }) },
  'approvals.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'approvals.get': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, approvalId: await pendingApproval(runId) }) },
  'approvals.diff': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, approvalId: await pendingApproval(runId) }) },
  // A fresh pending approval per call, so each allowed decision is a first one.
  'approvals.decide': {
    access: 'approver',
    input: async (fx) => ({ teamId: fx.teamId, approvalId: await pendingApproval(runId), decision: 'reject', comment: 'matrix' }),
  },
  'approvals.decideMany': { access: 'approver', input: async (fx) => ({ teamId: fx.teamId, approvalIds: [await pendingApproval(runId)], decision: 'reject' }) },
  ...policyMatrix(() => db.db),
  'endpoints.list': { access: 'operator', input: (fx) => ({ teamId: fx.teamId }) },
  'endpoints.create': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, name: `matrix-${n++}`, kind: 'faux', model: 'faux-1' }) },
  'endpoints.update': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, endpointId: agent.endpointId, maxRetries: n++ % 5 }) },
  // A fresh, unused endpoint per call, so each allowed delete is a first one.
  'endpoints.delete': {
    access: 'admin',
    input: async (fx) => ({
      teamId: fx.teamId,
      endpointId: (await db.db.modelEndpoint.create({ data: { teamId: fx.teamId, name: `doomed-${n++}`, kind: 'faux', model: 'faux-1' } })).id,
    }),
  },
  'endpoints.test': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, endpointId: agent.endpointId }) },
  'audit.list': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
  'audit.verify': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
  'audit.export': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
  'system.sandbox': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'overview.get': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'costs.spend': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, days: 7 }) },
  'costs.run': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId }) },
  'mcp.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'mcp.add': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, name: `matrix-${n++}`, transport: 'stdio', command: 'true' }) },
  'mcp.refresh': {
    access: 'admin',
    input: async (fx) => ({
      teamId: fx.teamId,
      serverId: (
        await db.db.mcpServer.upsert({
          where: { teamId_name: { teamId: fx.teamId, name: 'refreshed' } },
          create: { teamId: fx.teamId, name: 'refreshed', transport: 'stdio', command: 'true' },
          update: {},
        })
      ).id,
    }),
  },
  // A fresh server per call, so each allowed remove is a first one.
  'mcp.remove': {
    access: 'admin',
    input: async (fx) => ({
      teamId: fx.teamId,
      serverId: (await db.db.mcpServer.create({ data: { teamId: fx.teamId, name: `doomed-${n++}`, transport: 'stdio', command: 'true' } })).id,
    }),
  },
  'secrets.list': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
  'secrets.create': {
    access: 'admin',
    input: (fx) => ({ teamId: fx.teamId, name: `MATRIX_${n++}`, kind: 'token', value: 'matrix-secret-value', forge: 'github' }),
  },
  // A fresh secret per call, so each allowed delete is a first one.
  'secrets.delete': {
    access: 'admin',
    input: async (fx) => {
      const name = `DOOMED_${n++}`;
      await db.db.teamSecret.create({ data: { teamId: fx.teamId, name, ciphertext: 'v1.sealed-elsewhere', last4: 'alue' } });
      return { teamId: fx.teamId, name };
    },
  },
  'sessions.tree': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId }) },
  'sessions.events': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession() }) },
  'sessions.fork': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession(), atEvent: 1 }) },
  'sessions.replay': {
    access: 'operator',
    input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession(), atEvent: 1, systemPrompt: 'Be brief.', mode: 'stop' }),
  },
  // A freshly finished branch per call, so each allowed resume is a first one.
  'sessions.resume': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await finishedSession(), message: 'go on' }) },
  'sessions.diff': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, a: await startedSession(), b: await startedSession() }) },
  'sessions.files': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession() }) },
  'sessions.changes': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession() }) },
  'sessions.callDiff': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, ...(await committedCall()) }) },
  'sessions.patch': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await seededSession() }) },
  'sessions.promote': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession() }) },
  'sessions.restore': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await startedSession(), atEvent: 1, paths: ['a.txt'] }) },
  'graphs.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
  'graphs.get': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, graphId: (await ownGraph(fx)).graphId }) },
  'graphs.create': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, name: graphName(), definition: graphDefinitionFor(agent.agentId) }) },
  'graphs.update': {
    access: 'operator',
    input: async (fx) => ({ teamId: fx.teamId, graphId: (await ownGraph(fx)).graphId, definition: graphDefinitionFor(agent.agentId) }),
  },
  'graphs.run': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, runId: (await ownGraph(fx)).runId }) },
  'graphs.raiseEdgeBudget': {
    access: 'approver',
    input: async (fx) => ({ teamId: fx.teamId, runId: (await ownGraph(fx)).runId, edgeId: (await ownGraph(fx)).edgeId, tokens: 1 }),
  },
  ...webhookMatrix(() => db.db),
  ...uploadMatrix(() => db.db),
  ...skillMatrix(() => db.db),
  ...scheduleMatrix(
    () => db.db,
    () => agent.agentId,
  ),
  ...triggerMatrix(
    () => db.db,
    () => agent.agentId,
  ),
};
/** The team's graph, one run of it and its edge (made once, by the admin). */
const ownGraph = (fx: TeamFixture) => graphFixture(deps, fx.teamId, fx.members.admin.id, agent.agentId);
/** The other team's graph (made once, by its member). */
const foreignGraph = (fx: TeamFixture) => graphFixture(deps, fx.otherTeamId, fx.outsider.id, foreign.agentId);

const callers: Who[] = [
  { kind: 'signedOut' },
  { kind: 'outsider' },
  ...ROLES.map((role) => ({ kind: 'member', role }) as const),
  ...ROLES.map((role) => ({ kind: 'token', role }) as const),
];

function label(who: Who): string {
  return who.kind === 'member' || who.kind === 'token' ? `${who.kind}:${who.role}` : who.kind;
}

function expectedAllowed(entry: Entry, who: Who): boolean {
  if (who.kind === 'signedOut') return entry.access === 'public';
  if (entry.access === 'public' || entry.access === 'authed') return !(entry.tokensDenied && who.kind === 'token');
  if (who.kind === 'outsider') return false;
  return roleAtLeast(who.role, entry.access);
}

function metaAccess(meta: Meta | undefined): Entry['access'] | undefined {
  if (!meta) return undefined;
  return meta.access.kind === 'team' ? meta.access.role : meta.access.kind;
}

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
let agent: AgentFixture;
let runId: string;
/** The workspace store's pool and the reader's cache (so `sessions.files` can succeed for allowed callers). */
let pool: PgPool;
let cacheDir: string;
/** The other team's agent and run, for the cross-team cases. */
let foreign: AgentFixture & { runId: string };

async function startRun(teamId: string, agentId: string, userId = fx.members.admin.id): Promise<string> {
  const api = await callerAs(deps, { userId });
  return (await api.runs.create({ teamId, agentId, goal: 'fixture run' })).runId;
}

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  // A key, so procedures that seal secrets (secrets.create) can succeed for allowed callers;
  // a workspace reader, so file reads (sessions.files) can; webhooks to 127.0.0.1, so webhooks.create can.
  pool = createPgPool(db.url, { max: 2 });
  cacheDir = await mkdtemp(join(tmpdir(), 'looplane-matrix-files-'));
  const workspaces = new WorkspaceReader({ store: new PostgresWorkspaceStore(pool), cacheDir });
  deps = { db: db.db, dispatch: live.dispatch, secretBox: new SecretBox(randomBytes(32).toString('base64')), workspaces, webhooks: { allowPrivate: true } };
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId);
  runId = await startRun(fx.teamId, agent.agentId);
  const other = await createAgentFixture(db.db, fx.otherTeamId);
  foreign = { ...other, runId: await startRun(fx.otherTeamId, other.agentId, fx.outsider.id) };
});
afterAll(async () => {
  await live?.close();
  await pool?.end();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  await db?.drop();
});

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;

describe('authorization matrix', () => {
  it('has an entry for every procedure, matching its declared access', () => {
    expect(Object.keys(matrix).sort()).toEqual(Object.keys(procedures).sort());
    for (const [path, procedure] of Object.entries(procedures)) {
      expect(metaAccess(procedure._def.meta), path).toBe(matrix[path]?.access);
    }
  });

  for (const path of Object.keys(matrix)) {
    for (const who of callers) {
      const entry = matrix[path]!;
      const allowed = expectedAllowed(entry, who);
      it(`${path} as ${label(who)} is ${allowed ? 'allowed' : 'denied'}`, async () => {
        let auth: { userId?: string; bearer?: string } | null = null;
        let caller: { userId: string } | null = null;
        if (who.kind === 'outsider') auth = caller = { userId: fx.outsider.id };
        if (who.kind === 'member') auth = caller = { userId: fx.members[who.role].id };
        if (who.kind === 'token') {
          // A token of the given role, created by the admin: its role is what limits it.
          const token = await issueToken(db.db, fx.teamId, fx.members.admin.id, who.role);
          auth = { bearer: token.secret };
          caller = { userId: fx.members.admin.id };
        }
        const api = await callerAs(deps, auth);
        const input = await entry.input(fx, caller);
        const call = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api) as (input: unknown) => Promise<unknown>;
        const outcome = await call(input).then(
          () => 'ok',
          (error: unknown) => (error instanceof TRPCError ? error.code : `unexpected ${String(error)}`),
        );
        if (allowed) expect(outcome, `${path} as ${label(who)}`).toBe('ok');
        else expect(outcome).toBe(who.kind === 'signedOut' ? 'UNAUTHORIZED' : 'FORBIDDEN');
      });
    }
  }
});

describe('cross-team access', () => {
  it('a member of team A cannot read team B with team B’s id', async () => {
    const api = await callerAs(deps, { userId: fx.members.admin.id });
    await expect(api.teams.members({ teamId: fx.otherTeamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a token of team A is refused for team B even when its creator belongs to both', async () => {
    await db.db.membership.create({ data: { teamId: fx.otherTeamId, userId: fx.members.approver.id, role: 'admin' } });
    const token = await issueToken(db.db, fx.teamId, fx.members.approver.id, 'approver');
    const api = await callerAs(deps, { bearer: token.secret });
    await expect(api.tokens.list({ teamId: fx.otherTeamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(api.tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array);
  });
});

/**
 * Another team's resource, named with the caller's own team id: always NOT_FOUND (never
 * FORBIDDEN, which would confirm the id exists). Every procedure whose matrix input names a
 * resource id must have a case here.
 */
const crossTeam: Record<string, (fx: TeamFixture) => unknown> = {
  'agents.get': (fx) => ({ teamId: fx.teamId, agentId: foreign.agentId }),
  'agents.update': (fx) => ({ teamId: fx.teamId, agentId: foreign.agentId, description: 'hijack' }),
  'agents.create': (fx) => ({ teamId: fx.teamId, name: `cross-${n++}`, endpointId: foreign.endpointId }),
  'runs.create': (fx) => ({ teamId: fx.teamId, agentId: foreign.agentId, goal: 'hijack' }),
  'runs.get': (fx) => ({ teamId: fx.teamId, runId: foreign.runId }),
  'runs.events': (fx) => ({ teamId: fx.teamId, runId: foreign.runId }),
  'runs.cancel': (fx) => ({ teamId: fx.teamId, runId: foreign.runId }),
  'runs.sendMessage': (fx) => ({ teamId: fx.teamId, runId: foreign.runId, text: 'hijack' }),
  'runs.raiseBudget': (fx) => ({ teamId: fx.teamId, runId: foreign.runId, tokens: 1 }),
  'approvals.get': async (fx) => ({ teamId: fx.teamId, approvalId: await pendingApproval(foreign.runId) }),
  'approvals.diff': async (fx) => ({ teamId: fx.teamId, approvalId: await pendingApproval(foreign.runId) }),
  'approvals.decide': async (fx) => ({ teamId: fx.teamId, approvalId: await pendingApproval(foreign.runId), decision: 'approve' }),
  'endpoints.update': (fx) => ({ teamId: fx.teamId, endpointId: foreign.endpointId, name: 'hijack' }),
  'endpoints.delete': (fx) => ({ teamId: fx.teamId, endpointId: foreign.endpointId }),
  'endpoints.test': (fx) => ({ teamId: fx.teamId, endpointId: foreign.endpointId }),
  'costs.run': (fx) => ({ teamId: fx.teamId, runId: foreign.runId }),
  'mcp.refresh': async (fx) => ({
    teamId: fx.teamId,
    serverId: (await db.db.mcpServer.create({ data: { teamId: fx.otherTeamId, name: `foreign-${n++}`, transport: 'stdio', command: 'true' } })).id,
  }),
  'mcp.remove': async (fx) => ({
    teamId: fx.teamId,
    serverId: (await db.db.mcpServer.create({ data: { teamId: fx.otherTeamId, name: `foreign-${n++}`, transport: 'stdio', command: 'true' } })).id,
  }),
  'sessions.tree': (fx) => ({ teamId: fx.teamId, runId: foreign.runId }),
  'sessions.events': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession() }),
  'sessions.fork': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession(), atEvent: 1 }),
  'sessions.replay': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession(), atEvent: 1, mode: 'live' }),
  'sessions.resume': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession(), message: 'hijack' }),
  'sessions.promote': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession() }),
  'sessions.files': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession() }),
  'sessions.changes': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession() }),
  'sessions.callDiff': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession(), atEvent: 1 }),
  'sessions.restore': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession(), atEvent: 1 }),
  'sessions.patch': async (fx) => ({ teamId: fx.teamId, sessionId: await foreignSession() }),
  'graphs.get': async (fx) => ({ teamId: fx.teamId, graphId: (await foreignGraph(fx)).graphId }),
  'graphs.update': async (fx) => ({ teamId: fx.teamId, graphId: (await foreignGraph(fx)).graphId, definition: graphDefinitionFor(agent.agentId) }),
  'graphs.run': async (fx) => ({ teamId: fx.teamId, runId: (await foreignGraph(fx)).runId }),
  'graphs.raiseEdgeBudget': async (fx) => ({ teamId: fx.teamId, runId: (await foreignGraph(fx)).runId, edgeId: (await foreignGraph(fx)).edgeId, tokens: 1 }),
  'teams.revokeInvitation': async (fx) => ({ teamId: fx.teamId, invitationId: (await createInvitation(db.db, { teamId: fx.otherTeamId })).id }),
  'invitations.accept': async () => ({ invitationId: (await createInvitation(db.db, { userId: fx.outsider.id })).id }),
  'invitations.decline': async () => ({ invitationId: (await createInvitation(db.db, { userId: fx.outsider.id })).id }),
  ...webhookCrossTeam(() => db.db),
  ...uploadCrossTeam(() => db.db),
  ...skillCrossTeam(() => db.db),
  ...scheduleCrossTeam(
    () => db.db,
    () => foreign.agentId,
  ),
  ...triggerCrossTeam(
    () => db.db,
    () => foreign.agentId,
  ),
};
/** Ids that name a person or a caller-owned thing rather than a team resource. */
const NOT_RESOURCES = new Set(['teamId', 'userId', 'tokenId']);

describe('another team’s resources', () => {
  it('every procedure that takes a resource id has a cross-team case', async () => {
    const needed: string[] = [];
    for (const [path, entry] of Object.entries(matrix)) {
      const input = await entry.input(fx, { userId: fx.members.admin.id });
      const keys = input && typeof input === 'object' ? Object.keys(input) : [];
      if (keys.some((key) => key.endsWith('Id') && !NOT_RESOURCES.has(key))) needed.push(path);
    }
    expect(Object.keys(crossTeam).sort()).toEqual(needed.sort());
  });

  for (const [path, input] of Object.entries(crossTeam)) {
    it(`${path} with another team’s id is NOT_FOUND, and changes nothing there`, async () => {
      const api = await callerAs(deps, { userId: fx.members.admin.id });
      const call = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api) as (input: unknown) => Promise<unknown>;
      await expect(call(await input(fx))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  }

  it('the other team’s run and agent are untouched', async () => {
    const run = await db.db.run.findUniqueOrThrow({ where: { id: foreign.runId } });
    expect(run.cancelRequestedAt).toBeNull();
    expect(await db.db.inboxMessage.count({ where: { runId: foreign.runId } })).toBe(0);
    expect(await db.db.workspaceRestore.count({ where: { runId: foreign.runId } })).toBe(0);
    const agentRow = await db.db.agentTemplate.findUniqueOrThrow({ where: { id: foreign.agentId } });
    expect(agentRow.version).toBe(1);
    expect(live.errors).toEqual([]);
  });
});

/** A pending approval on the run's main session (each with its own request seq). */
const pendingApproval = (forRunId: string) => openApproval(db.db, forRunId, 1000 + n++);

let started: Promise<string> | null = null;

/** A session of the team whose log has begun (`run.started`, as the worker writes it), so it can be forked at event 1. */
function startedSession(): Promise<string> {
  started ??= beginSession();
  return started;
}

async function beginSession(): Promise<string> {
  return beginSessionLog(db.db, await startRun(fx.teamId, agent.agentId));
}

/** A branch that finished (its log and its row), for `sessions.resume`. */
async function finishedSession(): Promise<string> {
  const sessionId = await beginSession();
  await finishSessionLog(db.db, sessionId);
  return sessionId;
}

let committed: Promise<{ sessionId: string; atEvent: number }> | null = null;

/** A session whose log has a call that recorded a workspace commit, for `sessions.callDiff`. */
function committedCall(): Promise<{ sessionId: string; atEvent: number }> {
  committed ??= beginSession().then(async (sessionId) => ({ sessionId, atEvent: await appendCommittedCall(db.db, sessionId) }));
  return committed;
}

let seeded: Promise<string> | null = null;

/** A session whose run was seeded with files, for `sessions.patch`. */
function seededSession(): Promise<string> {
  seeded ??= beginSession().then(async (sessionId) => {
    await appendSeed(db.db, sessionId);
    return sessionId;
  });
  return seeded;
}

/** The other team's run's main session. */
async function foreignSession(): Promise<string> {
  return (await db.db.run.findUniqueOrThrow({ where: { id: foreign.runId }, select: { mainSessionId: true } })).mainSessionId!;
}
