import { defineRoute, type RestRoute } from '../rest-route';
import { REST_BASE } from '../rest-links';
import { graph, graphIdParams, graphList, getGraphQuery } from '../schemas/graphs.schemas';
import { graphRunBody, runCreated } from '../schemas/runs.schemas';

const graphParams = { graphId: 'cmexampleid0000000000000' };

export const graphRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/graphs',
    operationId: 'listGraphs',
    summary: 'List graphs',
    description: 'The team’s swarm graphs, each at its current version.',
    tag: 'graphs',
    procedure: 'graphs.list',
    response: graphList,
    responseDescription: 'The graphs, by name',
    example: {},
    handle: ({ caller, teamId }) => caller.graphs.list({ teamId }),
  }),

  defineRoute({
    method: 'GET',
    path: '/graphs/{graphId}',
    operationId: 'getGraph',
    summary: 'Get a graph',
    description: 'A graph’s nodes and governed edges at a version (default: its current one).',
    tag: 'graphs',
    procedure: 'graphs.get',
    params: graphIdParams,
    query: getGraphQuery,
    response: graph,
    responseDescription: 'The graph',
    problems: [404],
    example: { params: graphParams },
    handle: ({ caller, teamId, params, query }) => caller.graphs.get({ teamId, graphId: params.graphId, ...query }),
  }),

  defineRoute({
    method: 'POST',
    path: '/graphs/{graphId}/runs',
    operationId: 'runGraph',
    summary: 'Run a graph',
    description: 'Starts a run of the graph at its current version; its root node gets the goal. Honours `Idempotency-Key` like `POST /runs`.',
    tag: 'graphs',
    procedure: 'runs.create',
    params: graphIdParams,
    body: graphRunBody,
    response: runCreated,
    status: 201,
    responseDescription: 'The run was created (queued); `Location` is its URL',
    problems: [404, 409, 412, 422, 429],
    idempotent: true,
    example: { params: graphParams, body: { goal: 'Review the release notes' } },
    handle: ({ caller, teamId, params, body }) => caller.runs.create({ teamId, graphId: params.graphId, ...body }),
    headers: (created) => ({ location: `${REST_BASE}/runs/${created.runId}` }),
  }),
];
