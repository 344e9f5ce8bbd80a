import { nextPageLink } from '../rest-links';
import { defineRoute, type RestRoute } from '../rest-route';
import {
  createTriggerBody,
  listTriggerDeliveriesQuery,
  trigger,
  triggerDeleted,
  triggerDeliveryPage,
  triggerIdParams,
  triggerList,
  triggerWithSecret,
  updateTriggerBody,
} from '../schemas/triggers.schemas';

const triggerParams = { triggerId: 'cmexampleid0000000000000' };

export const triggerRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/triggers',
    operationId: 'listTriggers',
    summary: 'List triggers',
    description: 'The team’s inbound triggers: public URLs (`POST /api/hooks/{triggerId}`) that start a run or message one for a signed delivery.',
    tag: 'triggers',
    procedure: 'triggers.list',
    response: triggerList,
    responseDescription: 'The triggers, oldest first',
    example: {},
    handle: ({ caller, teamId }) => caller.triggers.list({ teamId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/triggers',
    operationId: 'createTrigger',
    summary: 'Create a trigger',
    description:
      'A name, a target (`start_run` of an agent or graph with a goal template, or `message_run` to a run of the team) and how deliveries ' +
      'authenticate (`standard_webhooks`, the default, or `bearer`). Templates may use `{{payload.a.b}}` paths only. The secret is in this answer only. ' +
      'Deliveries start runs in the creating admin’s name.',
    tag: 'triggers',
    procedure: 'triggers.create',
    body: createTriggerBody,
    response: triggerWithSecret,
    status: 201,
    responseDescription: 'The trigger and its secret (shown this once)',
    problems: [404, 409, 412],
    example: {
      body: {
        name: 'purchasing-inbox',
        target: { type: 'start_run', agentId: 'cmexampleagent0000000000', goalTemplate: 'Draft a quote for {{payload.mail.subject}}' },
      },
    },
    handle: ({ caller, teamId, body }) => caller.triggers.create({ teamId, ...body }),
  }),

  defineRoute({
    method: 'GET',
    path: '/triggers/{triggerId}',
    operationId: 'getTrigger',
    summary: 'Get a trigger',
    tag: 'triggers',
    procedure: 'triggers.get',
    params: triggerIdParams,
    response: trigger,
    responseDescription: 'The trigger (never its secret)',
    problems: [404],
    example: { params: triggerParams },
    handle: ({ caller, teamId, params }) => caller.triggers.get({ teamId, triggerId: params.triggerId }),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/triggers/{triggerId}',
    operationId: 'updateTrigger',
    summary: 'Change a trigger',
    description:
      'Changes the given fields: name, enabled, rate limit, and the target’s template (`goalTemplate` or `messageTemplate`), budget and workspace ' +
      '(null clears it). The target’s kind, agent, graph and run stay.',
    tag: 'triggers',
    procedure: 'triggers.update',
    params: triggerIdParams,
    body: updateTriggerBody,
    response: trigger,
    responseDescription: 'The changed trigger',
    problems: [404, 409],
    example: { params: triggerParams, body: { enabled: false } },
    handle: ({ caller, teamId, params, body }) => caller.triggers.update({ teamId, triggerId: params.triggerId, ...body }),
  }),

  defineRoute({
    method: 'DELETE',
    path: '/triggers/{triggerId}',
    operationId: 'deleteTrigger',
    summary: 'Delete a trigger',
    description: 'Its URL answers 404 from now on; its deliveries are deleted with it, the runs it started stay.',
    tag: 'triggers',
    procedure: 'triggers.delete',
    params: triggerIdParams,
    response: triggerDeleted,
    responseDescription: 'The trigger was deleted',
    problems: [404],
    example: { params: triggerParams },
    handle: ({ caller, teamId, params }) => caller.triggers.delete({ teamId, triggerId: params.triggerId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/triggers/{triggerId}/rotate-secret',
    operationId: 'rotateTriggerSecret',
    summary: 'Replace a trigger’s secret',
    description: 'The old secret stops working at once; the new one is in this answer only.',
    tag: 'triggers',
    procedure: 'triggers.rotateSecret',
    params: triggerIdParams,
    response: triggerWithSecret,
    responseDescription: 'The trigger and its new secret (shown this once)',
    problems: [404, 412],
    example: { params: triggerParams },
    handle: ({ caller, teamId, params }) => caller.triggers.rotateSecret({ teamId, triggerId: params.triggerId }),
  }),

  defineRoute({
    method: 'GET',
    path: '/triggers/{triggerId}/deliveries',
    operationId: 'listTriggerDeliveries',
    summary: 'List a trigger’s deliveries',
    description: 'Every delivery, accepted or refused, newest first: when, the status answered, why, and the run (`nextCursor`, also a `Link: rel="next"`).',
    tag: 'triggers',
    procedure: 'triggers.deliveries',
    params: triggerIdParams,
    query: listTriggerDeliveriesQuery,
    response: triggerDeliveryPage,
    responseDescription: 'A page of deliveries',
    problems: [404],
    example: { params: triggerParams, query: { limit: 20 } },
    handle: ({ caller, teamId, params, query }) =>
      caller.triggers.deliveries({
        teamId,
        triggerId: params.triggerId,
        ...(query.cursor ? { cursor: query.cursor } : {}),
        ...(query.limit ? { limit: query.limit } : {}),
      }),
    headers: (page, { params, query }) => nextPageLink(`/triggers/${params.triggerId}/deliveries`, query, page.nextCursor),
  }),
];
