import type { Role } from '@looplane/shared';
import { graphDefinitionFor, graphName } from './routers/graphs.fixtures';
import { policyMatrix } from './routers/policies.fixtures';
import { scheduleMatrix } from './routers/schedules.fixtures';
import { skillMatrix } from './routers/skills.fixtures';
import { triggerMatrix } from './routers/triggers.fixtures';
import { uploadMatrix } from './routers/uploads.fixtures';
import { webhookMatrix } from './routers/webhooks.fixtures';
import type { AuthzWorld } from './testing/authz-world';
import { createUser, issueToken, TEST_PASSWORD, type TeamFixture } from './testing/fixtures';
import { createInvitation } from './testing/invitations';

/** One procedure's row of the authorization matrix. */
export interface Entry {
  /** Minimum access, stated independently of the router's own metadata. */
  access: 'public' | 'authed' | Role;
  /** Team-less procedures that API tokens may not use. */
  tokensDenied?: boolean;
  input: (fx: TeamFixture, caller: { userId: string } | null) => Promise<unknown> | unknown;
}

/**
 * The authorization matrix's entries: every procedure of the router, with its minimum access and
 * an input that succeeds for an allowed caller. A procedure without an entry here fails the
 * matrix's first test (authz-matrix.int.test.ts), so nothing ships unchecked.
 */
export function authzMatrix(w: AuthzWorld): Record<string, Entry> {
  return {
    me: { access: 'authed', input: () => undefined },
    // Each member changes their own password once; later cases sign in afresh (callerAs).
    'account.changePassword': {
      access: 'authed',
      tokensDenied: true,
      input: () => ({ currentPassword: TEST_PASSWORD, newPassword: `matrix passphrase ${w.next()}` }),
    },
    'teams.list': { access: 'authed', input: () => undefined },
    'teams.create': {
      access: 'authed',
      tokensDenied: true,
      input: () => ({ name: 'New team', slug: `matrix-${Date.now()}-${w.next()}` }),
    },
    'teams.members': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'teams.invite': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, email: `invited-${Date.now()}-${w.next()}@example.test`, role: 'viewer' }) },
    'teams.invitations': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
    'teams.revokeInvitation': {
      access: 'admin',
      input: async (fx) => ({ teamId: fx.teamId, invitationId: (await createInvitation(w.db, { teamId: fx.teamId })).id }),
    },
    'invitations.mine': { access: 'authed', tokensDenied: true, input: () => undefined },
    'invitations.accept': {
      access: 'authed',
      tokensDenied: true,
      input: async (_fx, caller) => ({ invitationId: (await createInvitation(w.db, { userId: caller?.userId })).id }),
    },
    'invitations.decline': {
      access: 'authed',
      tokensDenied: true,
      input: async (_fx, caller) => ({ invitationId: (await createInvitation(w.db, { userId: caller?.userId })).id }),
    },
    'invitations.preview': { access: 'public', input: async () => ({ code: (await createInvitation(w.db)).code }) },
    'invitations.signUp': { access: 'public', input: async () => ({ code: (await createInvitation(w.db)).code, password: 'long enough pw' }) },
    'teams.removeMember': {
      access: 'admin',
      input: async (fx) => {
        const user = await createUser(w.db, 'removable');
        await w.db.membership.create({ data: { teamId: fx.teamId, userId: user.id, role: 'viewer' } });
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
        tokenId: (await issueToken(w.db, fx.teamId, caller?.userId ?? fx.members.admin.id, 'viewer')).id,
      }),
    },
    'agents.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'agents.get': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, agentId: w.agent.agentId }) },
    'agents.endpointOptions': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'agents.create': {
      access: 'operator',
      input: (fx) => ({ teamId: fx.teamId, name: `matrix-${Date.now()}-${w.next()}`, endpointId: w.agent.endpointId }),
    },
    'agents.update': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, agentId: w.agent.agentId, description: `edit ${w.next()}` }) },
    'runs.create': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, agentId: w.agent.agentId, goal: 'matrix run' }) },
    'runs.get': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId: w.runId }) },
    'runs.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'runs.events': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId: w.runId }) },
    // A fresh run per call, so each allowed cancel is a first one.
    'runs.cancel': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, runId: await w.startRun(fx.teamId, w.agent.agentId) }) },
    'runs.sendMessage': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, runId: w.runId, text: 'hello' }) },
    'runs.raiseBudget': { access: 'approver', input: (fx) => ({ teamId: fx.teamId, runId: w.runId, tokens: 100 }) },
    'approvals.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'approvals.get': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, approvalId: await w.pendingApproval(w.runId) }) },
    'approvals.diff': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, approvalId: await w.pendingApproval(w.runId) }) },
    // A fresh pending approval per call, so each allowed decision is a first one.
    'approvals.decide': {
      access: 'approver',
      input: async (fx) => ({ teamId: fx.teamId, approvalId: await w.pendingApproval(w.runId), decision: 'reject', comment: 'matrix' }),
    },
    'approvals.decideMany': {
      access: 'approver',
      input: async (fx) => ({ teamId: fx.teamId, approvalIds: [await w.pendingApproval(w.runId)], decision: 'reject' }),
    },
    ...policyMatrix(() => w.db),
    'endpoints.list': { access: 'operator', input: (fx) => ({ teamId: fx.teamId }) },
    'endpoints.create': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, name: `matrix-${w.next()}`, kind: 'faux', model: 'faux-1' }) },
    'endpoints.update': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, endpointId: w.agent.endpointId, maxRetries: w.next() % 5 }) },
    // A fresh, unused endpoint per call, so each allowed delete is a first one.
    'endpoints.delete': {
      access: 'admin',
      input: async (fx) => ({
        teamId: fx.teamId,
        endpointId: (await w.db.modelEndpoint.create({ data: { teamId: fx.teamId, name: `doomed-${w.next()}`, kind: 'faux', model: 'faux-1' } })).id,
      }),
    },
    'endpoints.test': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, endpointId: w.agent.endpointId }) },
    'audit.list': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
    'audit.verify': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
    'audit.export': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
    'system.sandbox': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'overview.get': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'costs.spend': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, days: 7 }) },
    'costs.run': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId: w.runId }) },
    'mcp.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'mcp.add': { access: 'admin', input: (fx) => ({ teamId: fx.teamId, name: `matrix-${w.next()}`, transport: 'stdio', command: 'true' }) },
    'mcp.refresh': {
      access: 'admin',
      input: async (fx) => ({
        teamId: fx.teamId,
        serverId: (
          await w.db.mcpServer.upsert({
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
        serverId: (await w.db.mcpServer.create({ data: { teamId: fx.teamId, name: `doomed-${w.next()}`, transport: 'stdio', command: 'true' } })).id,
      }),
    },
    'secrets.list': { access: 'admin', input: (fx) => ({ teamId: fx.teamId }) },
    'secrets.create': {
      access: 'admin',
      input: (fx) => ({ teamId: fx.teamId, name: `MATRIX_${w.next()}`, kind: 'token', value: 'matrix-secret-value', forge: 'github' }),
    },
    // A fresh secret per call, so each allowed delete is a first one.
    'secrets.delete': {
      access: 'admin',
      input: async (fx) => {
        const name = `DOOMED_${w.next()}`;
        await w.db.teamSecret.create({ data: { teamId: fx.teamId, name, ciphertext: 'v1.sealed-elsewhere', last4: 'alue' } });
        return { teamId: fx.teamId, name };
      },
    },
    'sessions.tree': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId, runId: w.runId }) },
    'sessions.events': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession() }) },
    'sessions.fork': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession(), atEvent: 1 }) },
    'sessions.replay': {
      access: 'operator',
      input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession(), atEvent: 1, systemPrompt: 'Be brief.', mode: 'stop' }),
    },
    // A freshly finished branch per call, so each allowed resume is a first one.
    'sessions.resume': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.finishedSession(), message: 'go on' }) },
    'sessions.diff': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, a: await w.startedSession(), b: await w.startedSession() }) },
    'sessions.files': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession() }) },
    'sessions.changes': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession() }) },
    'sessions.callDiff': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, ...(await w.committedCall()) }) },
    'sessions.patch': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.seededSession() }) },
    'sessions.promote': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession() }) },
    'sessions.restore': { access: 'operator', input: async (fx) => ({ teamId: fx.teamId, sessionId: await w.startedSession(), atEvent: 1, paths: ['a.txt'] }) },
    'graphs.list': { access: 'viewer', input: (fx) => ({ teamId: fx.teamId }) },
    'graphs.get': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, graphId: (await w.ownGraph()).graphId }) },
    'graphs.create': { access: 'operator', input: (fx) => ({ teamId: fx.teamId, name: graphName(), definition: graphDefinitionFor(w.agent.agentId) }) },
    'graphs.update': {
      access: 'operator',
      input: async (fx) => ({ teamId: fx.teamId, graphId: (await w.ownGraph()).graphId, definition: graphDefinitionFor(w.agent.agentId) }),
    },
    'graphs.run': { access: 'viewer', input: async (fx) => ({ teamId: fx.teamId, runId: (await w.ownGraph()).runId }) },
    'graphs.raiseEdgeBudget': {
      access: 'approver',
      input: async (fx) => ({ teamId: fx.teamId, runId: (await w.ownGraph()).runId, edgeId: (await w.ownGraph()).edgeId, tokens: 1 }),
    },
    ...webhookMatrix(() => w.db),
    ...uploadMatrix(() => w.db),
    ...skillMatrix(() => w.db),
    ...scheduleMatrix(
      () => w.db,
      () => w.agent.agentId,
    ),
    ...triggerMatrix(
      () => w.db,
      () => w.agent.agentId,
    ),
  };
}
