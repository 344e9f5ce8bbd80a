import { defineRoute, type RestRoute } from '../rest-route';
import { agent, agentIdParams, agentList, updateAgentBody } from '../schemas/agents.schemas';

const agentParams = { agentId: 'cmexampleid0000000000000' };

export const agentRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/agents',
    operationId: 'listAgents',
    summary: 'List agents',
    description: 'The team’s agent templates: what a run is started from (endpoint, prompt, tools, sandbox, slash commands).',
    tag: 'agents',
    procedure: 'agents.list',
    response: agentList,
    responseDescription: 'The agents, by name',
    example: {},
    handle: ({ caller, teamId }) => caller.agents.list({ teamId }),
  }),

  defineRoute({
    method: 'GET',
    path: '/agents/{agentId}',
    operationId: 'getAgent',
    summary: 'Get an agent',
    tag: 'agents',
    procedure: 'agents.get',
    params: agentIdParams,
    response: agent,
    responseDescription: 'The agent template',
    problems: [404],
    example: { params: agentParams },
    handle: ({ caller, teamId, params }) => caller.agents.get({ teamId, agentId: params.agentId }),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/agents/{agentId}',
    operationId: 'updateAgent',
    summary: 'Change an agent',
    description:
      'Changes the given fields (a new version of the template); with `expectedVersion`, a concurrent edit makes it fail with 409. ' +
      '`workspace` is checked as a run’s would be (the policy’s `workspace.sources`, the secret’s kind, the upload or session), without using an upload up.',
    tag: 'agents',
    procedure: 'agents.update',
    params: agentIdParams,
    body: updateAgentBody,
    response: agent,
    responseDescription: 'The changed agent template',
    problems: [404, 409, 412, 422],
    example: { params: agentParams, body: { description: 'Triages new issues', expectedVersion: 1 } },
    handle: ({ caller, teamId, params, body }) => caller.agents.update({ teamId, agentId: params.agentId, ...body }),
  }),
];
