import { AppError } from '@looplane/shared';
import type { z } from 'zod';
import { defineRoute, type RestCaller, type RestRoute } from '../rest-route';
import { REST_BASE, nextPageLink } from '../rest-links';
import {
  budgetRaised,
  createRunBody,
  listRunsQuery,
  messageSent,
  raiseBudgetBody,
  runCancelled,
  runCreated,
  runDetail,
  runEventPage,
  runEventsQuery,
  runIdParams,
  runPage,
  sendMessageBody,
  type waitReason,
} from '../schemas/runs.schemas';

type WaitReason = z.output<typeof waitReason>;

const EXAMPLE_ID = 'cmexampleid0000000000000';
const runParams = { runId: EXAMPLE_ID };

/** The SSE stream of a run's events after `after` (the existing `/api/runs/{runId}/stream`). */
function runStreamPath(runId: string, after: number): string {
  return `/api/runs/${encodeURIComponent(runId)}/stream?lastEventId=${after}`;
}

/** The agent or graph a create names, as the id `runs.create` takes; a name the team lacks is NOT_FOUND. */
async function runTarget(
  caller: RestCaller,
  teamId: string,
  body: { agentId?: string | undefined; agentName?: string | undefined; graphId?: string | undefined; graphName?: string | undefined },
) {
  if (body.agentName !== undefined) {
    const agent = (await caller.agents.list({ teamId })).find((a) => a.name === body.agentName);
    if (!agent) throw new AppError('NOT_FOUND', `No agent named "${body.agentName}" in this team`);
    return { agentId: agent.id };
  }
  if (body.graphName !== undefined) {
    const graph = (await caller.graphs.list({ teamId })).find((g) => g.name === body.graphName);
    if (!graph) throw new AppError('NOT_FOUND', `No graph named "${body.graphName}" in this team`);
    return { graphId: graph.id };
  }
  return body.graphId !== undefined ? { graphId: body.graphId } : { ...(body.agentId !== undefined ? { agentId: body.agentId } : {}) };
}

export const runRoutes: RestRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/runs',
    operationId: 'createRun',
    summary: 'Start a run',
    description:
      'Starts a run of an agent (by id or name) or of a swarm graph (by id or name) with a goal (free text or `/command args`) and an optional budget. ' +
      '`workspace` says where its files come from: a repository (`git`), an uploaded archive (`archive`, see `POST /uploads`) or another session’s files (`session`); ' +
      'without it, the agent’s default (else an empty workspace). A repository the team policy’s `workspace.sources` does not allow is 403; ' +
      'an unknown upload or session is 404; a `secretRef` naming no team secret is 412; a secret of the wrong kind for the URL is 400. ' +
      'Send an `Idempotency-Key` to make retries safe: the same key and body within 24 hours return the first run.',
    tag: 'runs',
    procedure: 'runs.create',
    body: createRunBody,
    response: runCreated,
    status: 201,
    responseDescription: 'The run was created (queued); `Location` is its URL',
    problems: [404, 409, 412, 422, 429],
    idempotent: true,
    example: {
      body: {
        agentName: 'triage',
        goal: 'Fix the failing test',
        budget: { tokens: 200_000, onExceed: 'wait' },
        workspace: { git: { url: 'https://github.com/acme/api.git', ref: 'main', secretRef: 'GITHUB_TOKEN' } },
      },
    },
    handle: async ({ caller, teamId, body }) =>
      caller.runs.create({
        teamId,
        ...(await runTarget(caller, teamId, body)),
        goal: body.goal,
        ...(body.budget ? { budget: body.budget } : {}),
        ...(body.workspace ? { workspace: body.workspace } : {}),
      }),
    headers: (created) => ({ location: `${REST_BASE}/runs/${created.runId}` }),
  }),

  defineRoute({
    method: 'GET',
    path: '/runs',
    operationId: 'listRuns',
    summary: 'List runs',
    description: 'The team’s runs, newest first, one page at a time (`nextCursor`, also a `Link: rel="next"`).',
    tag: 'runs',
    procedure: 'runs.list',
    query: listRunsQuery,
    response: runPage,
    responseDescription: 'A page of runs',
    example: { query: { status: ['running', 'waiting'], limit: 20 } },
    handle: async ({ caller, teamId, query }) => {
      const page = await caller.runs.list({ teamId, ...query });
      // The column is the WaitReason enum; only the raw SQL of the listing types it as text.
      return { ...page, runs: page.runs.map((run) => ({ ...run, waitReason: run.waitReason as WaitReason | null })) };
    },
    headers: (page, { query }) => nextPageLink('/runs', query, page.nextCursor),
  }),

  defineRoute({
    method: 'GET',
    path: '/runs/{runId}',
    operationId: 'getRun',
    summary: 'Get a run',
    description: 'One run: status, budget and spend, its sessions and the people involved.',
    tag: 'runs',
    procedure: 'runs.get',
    params: runIdParams,
    response: runDetail,
    responseDescription: 'The run',
    problems: [404],
    example: { params: runParams },
    handle: ({ caller, teamId, params }) => caller.runs.get({ teamId, runId: params.runId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/runs/{runId}/cancel',
    operationId: 'cancelRun',
    summary: 'Cancel a run',
    description: 'Asks the run to stop; the worker holding it stops at once and records the cancellation. Asking twice is harmless.',
    tag: 'runs',
    procedure: 'runs.cancel',
    params: runIdParams,
    response: runCancelled,
    responseDescription: 'Cancellation was requested',
    problems: [404, 412],
    example: { params: runParams },
    handle: ({ caller, teamId, params }) => caller.runs.cancel({ teamId, runId: params.runId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/runs/{runId}/messages',
    operationId: 'sendRunMessage',
    summary: 'Send a message to a run',
    description:
      'A message to the run’s main session, delivered per the agent’s busy policy. A succeeded or failed run continues with it: it is queued again on its main session, takes the message as its next user turn and spends from the same budget. A cancelled run takes no messages (412): fork or resume its session instead.',
    tag: 'runs',
    procedure: 'runs.sendMessage',
    params: runIdParams,
    body: sendMessageBody,
    response: messageSent,
    status: 201,
    responseDescription: 'The message was queued for the run',
    problems: [404, 412, 422],
    example: { params: runParams, body: { text: 'Also check the flaky test' } },
    handle: ({ caller, teamId, params, body }) => caller.runs.sendMessage({ teamId, runId: params.runId, text: body.text }),
  }),

  defineRoute({
    method: 'POST',
    path: '/runs/{runId}/budget',
    operationId: 'raiseRunBudget',
    summary: 'Raise a run’s budget',
    description: 'Adds to the run ledger’s limits (an unlimited limit stays unlimited); a run waiting on its budget goes on.',
    tag: 'runs',
    procedure: 'runs.raiseBudget',
    params: runIdParams,
    body: raiseBudgetBody,
    response: budgetRaised,
    responseDescription: 'The new limits',
    problems: [404, 412, 422],
    example: { params: runParams, body: { tokens: 100_000 } },
    handle: ({ caller, teamId, params, body }) => caller.runs.raiseBudget({ teamId, runId: params.runId, ...body }),
  }),

  defineRoute({
    method: 'GET',
    path: '/runs/{runId}/events',
    operationId: 'listRunEvents',
    summary: 'Read a run’s events',
    description:
      'The run’s events after an event number, oldest first. `stream` (and `Link: rel="stream"`) is the live SSE stream from after this page; ' +
      'while `hasMore` is true, `Link: rel="next"` is the next page.',
    tag: 'runs',
    procedure: 'runs.events',
    params: runIdParams,
    query: runEventsQuery,
    response: runEventPage,
    responseDescription: 'A page of events',
    problems: [404],
    example: { params: runParams, query: { after: 0, limit: 100 } },
    handle: async ({ caller, teamId, params, query }) => {
      const page = await caller.runs.events({ teamId, runId: params.runId, ...query });
      return { ...page, stream: runStreamPath(params.runId, page.nextAfter) };
    },
    headers: (page, { params, query }) => {
      const links = [`<${page.stream}>; rel="stream"`];
      if (page.hasMore) {
        const next = new URLSearchParams({ after: String(page.nextAfter), ...(query.limit !== undefined ? { limit: String(query.limit) } : {}) });
        links.push(`<${REST_BASE}/runs/${params.runId}/events?${next}>; rel="next"`);
      }
      return { link: links.join(', ') };
    },
  }),
];
