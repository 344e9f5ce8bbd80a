import type { RestRequest } from '../testing/rest-client';
import type { TeamResources } from '../testing/team-resources';

/** A route's valid request, from which the bad-input tests derive the bad ones. */
export interface Table {
  valid(): RestRequest;
  /** Body or query fields the route takes without. */
  optional?: string[];
}

/** An id of the right shape that names nothing. */
export const NO_SUCH_ID = 'cmnosuchresource000000000';

/**
 * A valid request for every REST route that takes a path parameter, query or body (real
 * resources, so only the bad part can be wrong). A route with input and no table here fails the
 * first test of rest-bad-input.int.test.ts.
 */
export function restBadInputTables(r: () => TeamResources): Record<string, Table> {
  return {
    createRun: {
      valid: () => ({
        body: { agentId: r().agent.agentId, goal: 'Do the thing', budget: { tokens: 1000 }, workspace: { git: { url: 'https://git.example.test/a.git' } } },
      }),
      optional: ['budget', 'workspace'],
    },
    listRuns: { valid: () => ({ query: { text: 'thing', limit: 10, status: ['queued'], sort: 'created' } }), optional: ['text', 'limit', 'status', 'sort'] },
    getRun: { valid: () => ({ params: { runId: r().runId } }) },
    cancelRun: { valid: () => ({ params: { runId: r().runId } }) },
    sendRunMessage: { valid: () => ({ params: { runId: r().runId }, body: { text: 'Also check the docs' } }) },
    // Each limit may be left out, but not all three (a case of its own below).
    raiseRunBudget: { valid: () => ({ params: { runId: r().runId }, body: { tokens: 1000 } }), optional: ['tokens'] },
    listRunEvents: { valid: () => ({ params: { runId: r().runId }, query: { after: 5, limit: 100 } }), optional: ['after', 'limit'] },
    listApprovals: { valid: () => ({ query: { status: 'pending', runId: r().runId, limit: 20 } }), optional: ['status', 'runId', 'limit'] },
    getApproval: { valid: () => ({ params: { approvalId: NO_SUCH_ID } }) },
    decideApproval: { valid: () => ({ params: { approvalId: NO_SUCH_ID }, body: { decision: 'approve', comment: 'looks fine' } }), optional: ['comment'] },
    getAgent: { valid: () => ({ params: { agentId: r().agent.agentId } }) },
    updateAgent: {
      valid: () => ({ params: { agentId: r().agent.agentId }, body: { description: 'Sharper', expectedVersion: 1 } }),
      optional: ['description', 'expectedVersion'],
    },
    getGraph: { valid: () => ({ params: { graphId: NO_SUCH_ID }, query: { version: 1 } }), optional: ['version'] },
    runGraph: { valid: () => ({ params: { graphId: NO_SUCH_ID }, body: { goal: 'Review the notes' } }) },
    forkSession: { valid: () => ({ params: { sessionId: r().sessionId }, body: { atEvent: 1, message: 'Try another way' } }), optional: ['message'] },
    replaySession: {
      valid: () => ({ params: { sessionId: r().sessionId }, body: { atEvent: 1, systemPrompt: 'Be brief.', mode: 'stop' } }),
      optional: ['atEvent', 'endpointId', 'systemPrompt'],
    },
    resumeSession: { valid: () => ({ params: { sessionId: r().sessionId }, body: { message: 'Continue' } }) },
    getSessionFiles: { valid: () => ({ params: { sessionId: r().sessionId }, query: { atEvent: 1, path: 'src/app.ts' } }), optional: ['atEvent', 'path'] },
    getSessionPatch: { valid: () => ({ params: { sessionId: r().sessionId }, query: { base: 1 } }), optional: ['base'] },
    restoreSession: { valid: () => ({ params: { sessionId: r().sessionId }, body: { atEvent: 1, paths: ['src/app.ts'] } }), optional: ['paths'] },
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
          agentId: r().agent.agentId,
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
          target: { type: 'start_run', agentId: r().agent.agentId, goalTemplate: 'Quote for {{payload.mail.subject}}' },
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
}

/** Routes that take no path parameter, query or body. */
export const noInput = new Set(['getMe', 'listAgents', 'listGraphs', 'exportAudit', 'listTokens', 'listMcpServers', 'listSchedules', 'listTriggers']);
