import { RUN_STATUSES, SESSION_STATUSES } from '@looplane/db/vocabulary';
import { z } from 'zod';
import { createRunInput, listRunsInput, raiseBudgetInput, sendMessageInput, MAX_EVENT_NO } from '../../routers/runs.schema';
import { bigCount, id, intQuery, timestamp, userRef } from './common.schemas';
import { workspaceSource } from './workspace.schemas';

export const runStatus = z.enum(RUN_STATUSES).meta({ id: 'RunStatus' });
export const waitReason = z.enum(['approval', 'child', 'budget', 'message', 'isolation']).meta({ id: 'WaitReason' });
const sessionStatus = z.enum(SESSION_STATUSES).meta({ id: 'SessionStatus' });
const agentRef = z.strictObject({ id, name: z.string() }).meta({ id: 'AgentRef' });

// ---- requests (the tRPC inputs' own field schemas, in strict objects) ----

const { goal, budget } = createRunInput.shape;

export const runIdParams = z.strictObject({ runId: id });

/** `POST /runs`: the agent by id or name, or a graph by id or name; exactly one of the four. */
export const createRunBody = z
  .strictObject({
    agentId: createRunInput.shape.agentId,
    agentName: z.string().trim().min(1).max(64).optional(),
    graphId: createRunInput.shape.graphId,
    graphName: z.string().trim().min(1).max(64).optional(),
    goal,
    budget,
    workspace: workspaceSource.optional().meta({ description: 'Where the run’s files come from (default: the agent’s own default, else an empty workspace)' }),
  })
  .superRefine((body, ctx) => {
    const given = (['agentId', 'agentName', 'graphId', 'graphName'] as const).filter((key) => body[key] !== undefined);
    if (given.length === 0)
      ctx.addIssue({ code: 'custom', path: ['agentId'], message: 'give the agent (agentId or agentName) or the graph (graphId or graphName) to run' });
    if (given.length > 1)
      ctx.addIssue({ code: 'custom', path: [given[1]!], message: `give one of agentId, agentName, graphId or graphName, not ${given.join(' and ')}` });
  })
  .meta({ id: 'CreateRunRequest' });

/** `POST /graphs/{graphId}/runs`. */
export const graphRunBody = z
  .strictObject({
    goal,
    budget,
    workspace: workspaceSource.optional().meta({ description: 'Where the root session’s files come from (default: the root node’s, else its agent’s)' }),
  })
  .meta({ id: 'GraphRunRequest' });

export const listRunsQuery = z.strictObject({
  status: listRunsInput.shape.status.meta({ description: 'Repeat to give several: ?status=running&status=waiting' }),
  agentId: listRunsInput.shape.agentId,
  createdById: listRunsInput.shape.createdById,
  text: listRunsInput.shape.text.meta({ description: 'Case-insensitive substring of the goal' }),
  sort: z.enum(['created', 'updated']).optional().meta({ description: 'Newest first by creation (default) or by last update' }),
  limit: intQuery(1, 200).optional().meta({ description: 'Runs per page (default 50)' }),
  cursor: z.string().max(200).optional().meta({ description: '`nextCursor` of the previous page' }),
});

export const runEventsQuery = z.strictObject({
  after: intQuery(0, MAX_EVENT_NO).optional().meta({ description: 'Events with an event number above this (default 0: from the start)' }),
  limit: intQuery(1, 1000).optional().meta({ description: 'Events per page (default 200)' }),
});

export const sendMessageBody = z.strictObject({ text: sendMessageInput.shape.text }).meta({ id: 'SendMessageRequest' });

const { tokens, costMicros, toolCalls } = raiseBudgetInput.shape;
export const raiseBudgetBody = z
  .strictObject({ tokens, costMicros, toolCalls })
  .refine((body) => body.tokens !== undefined || body.costMicros !== undefined || body.toolCalls !== undefined, {
    message: 'give at least one of tokens, costMicros or toolCalls to raise',
  })
  .meta({ id: 'RaiseBudgetRequest' });

// ---- responses ----

export const runCreated = z.strictObject({ runId: id }).meta({ id: 'RunCreated' });

const runBudget = z
  .strictObject({
    tokens: z.int().optional(),
    costMicros: z.int().optional(),
    toolCalls: z.int().optional(),
    wallMs: z.int().optional(),
    onExceed: z.enum(['wait', 'fail']),
  })
  .meta({ id: 'RunBudget' });

const runLedger = z
  .strictObject({
    limitTokens: bigCount.nullable(),
    limitCostMicros: bigCount.nullable(),
    limitCalls: z.int().nullable(),
    reservedTokens: bigCount,
    reservedCostMicros: bigCount,
    spentTokens: bigCount,
    spentCostMicros: bigCount,
    calls: z.int(),
  })
  .meta({ id: 'RunLedger' });

const runSession = z.strictObject({
  id,
  parentId: id.nullable(),
  status: sessionStatus,
  waitReason: waitReason.nullable(),
  title: z.string(),
  costMicros: bigCount,
  lastSeq: z.int(),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});

export const runDetail = z
  .strictObject({
    id,
    goal: z.string(),
    status: runStatus,
    waitReason: waitReason.nullable(),
    agent: agentRef.nullable(),
    graphId: id.nullable(),
    createdBy: userRef.nullable(),
    createdByTokenId: id.nullable(),
    budget: runBudget,
    ledger: runLedger.nullable(),
    spentTokens: bigCount,
    spentCostMicros: bigCount,
    toolCalls: z.int(),
    lastEventNo: bigCount,
    busyPolicy: z.string().meta({ description: 'What a message does while the run works: reject, enqueue or interrupt (the agent’s, when the run started)' }),
    cancelRequestedAt: timestamp.nullable(),
    cancelledBy: userRef.nullable(),
    rootSessionId: id.nullable(),
    mainSessionId: id.nullable(),
    result: z.string().nullable(),
    error: z.string().nullable(),
    pendingMessages: z.int(),
    sessions: z.array(runSession).meta({ description: 'The first 200 sessions, oldest first' }),
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Run' });

const runSummary = z
  .strictObject({
    id,
    goal: z.string().meta({ description: 'The first 300 characters' }),
    status: runStatus,
    waitReason: waitReason.nullable(),
    agent: agentRef.nullable(),
    createdBy: z.strictObject({ id, email: z.string() }).nullable(),
    viaToken: z.boolean(),
    spentTokens: bigCount,
    spentCostMicros: bigCount,
    toolCalls: z.int(),
    createdAt: timestamp,
    updatedAt: timestamp,
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
  })
  .meta({ id: 'RunSummary' });

export const runPage = z.strictObject({ runs: z.array(runSummary), nextCursor: z.string().nullable() }).meta({ id: 'RunPage' });

const runEvent = z
  .strictObject({
    eventNo: bigCount.meta({ description: 'Per-run, from 1: the SSE id and the `after` of the next page' }),
    sessionId: id,
    seq: z.int(),
    type: z.string(),
    version: z.int(),
    payload: z.unknown().meta({ description: 'The event body; its shape depends on `type`' }),
    createdAt: timestamp,
  })
  .meta({ id: 'RunEvent' });

export const runEventPage = z
  .strictObject({
    events: z.array(runEvent),
    nextAfter: bigCount,
    lastEventNo: bigCount,
    hasMore: z.boolean(),
    stream: z.string().meta({ description: 'The live SSE stream from after this page (a URL path on this server; Bearer token)' }),
  })
  .meta({ id: 'RunEventPage' });

export const runCancelled = z.strictObject({ runId: id, cancelRequestedAt: timestamp, alreadyRequested: z.boolean() }).meta({ id: 'RunCancelRequested' });

export const messageSent = z
  .strictObject({
    messageId: id,
    createdAt: timestamp,
    delivered: z.enum(['wake', 'inbox']).meta({
      description:
        'wake: the session was woken with it (a succeeded or failed run continues: it is queued again and runs with the message); inbox: a running session reads it at its next step. A cancelled run refuses messages (412).',
    }),
  })
  .meta({ id: 'MessageSent' });

export const budgetRaised = z
  .strictObject({
    runId: id,
    limits: z.strictObject({ tokens: bigCount.nullable(), costMicros: bigCount.nullable(), toolCalls: z.int().nullable() }),
    resumed: z.boolean(),
  })
  .meta({ id: 'BudgetRaised' });
