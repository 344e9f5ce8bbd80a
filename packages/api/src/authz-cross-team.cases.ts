import { graphDefinitionFor } from './routers/graphs.fixtures';
import { scheduleCrossTeam } from './routers/schedules.fixtures';
import { skillCrossTeam } from './routers/skills.fixtures';
import { triggerCrossTeam } from './routers/triggers.fixtures';
import { uploadCrossTeam } from './routers/uploads.fixtures';
import { webhookCrossTeam } from './routers/webhooks.fixtures';
import type { AuthzWorld } from './testing/authz-world';
import type { TeamFixture } from './testing/fixtures';
import { createInvitation } from './testing/invitations';

/**
 * Another team's resource, named with the caller's own team id: always NOT_FOUND (never
 * FORBIDDEN, which would confirm the id exists). Every procedure whose matrix input names a
 * resource id must have a case here (authz-matrix.int.test.ts checks it).
 */
export function crossTeamCases(w: AuthzWorld): Record<string, (fx: TeamFixture) => unknown> {
  return {
    'agents.get': (fx) => ({ teamId: fx.teamId, agentId: w.foreign.agentId }),
    'agents.update': (fx) => ({ teamId: fx.teamId, agentId: w.foreign.agentId, description: 'hijack' }),
    'agents.create': (fx) => ({ teamId: fx.teamId, name: `cross-${w.next()}`, endpointId: w.foreign.endpointId }),
    'runs.create': (fx) => ({ teamId: fx.teamId, agentId: w.foreign.agentId, goal: 'hijack' }),
    'runs.get': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId }),
    'runs.events': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId }),
    'runs.cancel': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId }),
    'runs.sendMessage': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId, text: 'hijack' }),
    'runs.raiseBudget': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId, tokens: 1 }),
    'approvals.get': async (fx) => ({ teamId: fx.teamId, approvalId: await w.pendingApproval(w.foreign.runId) }),
    'approvals.diff': async (fx) => ({ teamId: fx.teamId, approvalId: await w.pendingApproval(w.foreign.runId) }),
    'approvals.decide': async (fx) => ({ teamId: fx.teamId, approvalId: await w.pendingApproval(w.foreign.runId), decision: 'approve' }),
    'endpoints.update': (fx) => ({ teamId: fx.teamId, endpointId: w.foreign.endpointId, name: 'hijack' }),
    'endpoints.delete': (fx) => ({ teamId: fx.teamId, endpointId: w.foreign.endpointId }),
    'endpoints.test': (fx) => ({ teamId: fx.teamId, endpointId: w.foreign.endpointId }),
    'costs.run': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId }),
    'mcp.refresh': async (fx) => ({
      teamId: fx.teamId,
      serverId: (await w.db.mcpServer.create({ data: { teamId: fx.otherTeamId, name: `foreign-${w.next()}`, transport: 'stdio', command: 'true' } })).id,
    }),
    'mcp.remove': async (fx) => ({
      teamId: fx.teamId,
      serverId: (await w.db.mcpServer.create({ data: { teamId: fx.otherTeamId, name: `foreign-${w.next()}`, transport: 'stdio', command: 'true' } })).id,
    }),
    'sessions.tree': (fx) => ({ teamId: fx.teamId, runId: w.foreign.runId }),
    'sessions.events': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession() }),
    'sessions.fork': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession(), atEvent: 1 }),
    'sessions.replay': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession(), atEvent: 1, mode: 'live' }),
    'sessions.resume': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession(), message: 'hijack' }),
    'sessions.promote': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession() }),
    'sessions.files': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession() }),
    'sessions.changes': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession() }),
    'sessions.callDiff': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession(), atEvent: 1 }),
    'sessions.restore': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession(), atEvent: 1 }),
    'sessions.patch': async (fx) => ({ teamId: fx.teamId, sessionId: await w.foreignSession() }),
    'graphs.get': async (fx) => ({ teamId: fx.teamId, graphId: (await w.foreignGraph()).graphId }),
    'graphs.update': async (fx) => ({ teamId: fx.teamId, graphId: (await w.foreignGraph()).graphId, definition: graphDefinitionFor(w.agent.agentId) }),
    'graphs.run': async (fx) => ({ teamId: fx.teamId, runId: (await w.foreignGraph()).runId }),
    'graphs.raiseEdgeBudget': async (fx) => ({ teamId: fx.teamId, runId: (await w.foreignGraph()).runId, edgeId: (await w.foreignGraph()).edgeId, tokens: 1 }),
    'teams.revokeInvitation': async (fx) => ({ teamId: fx.teamId, invitationId: (await createInvitation(w.db, { teamId: fx.otherTeamId })).id }),
    'invitations.accept': async () => ({ invitationId: (await createInvitation(w.db, { userId: w.fx.outsider.id })).id }),
    'invitations.decline': async () => ({ invitationId: (await createInvitation(w.db, { userId: w.fx.outsider.id })).id }),
    ...webhookCrossTeam(() => w.db),
    ...uploadCrossTeam(() => w.db),
    ...skillCrossTeam(() => w.db),
    ...scheduleCrossTeam(
      () => w.db,
      () => w.foreign.agentId,
    ),
    ...triggerCrossTeam(
      () => w.db,
      () => w.foreign.agentId,
    ),
  };
}
