import { defineRoute, type RestRoute } from '../rest-route';
import { nextPageLink } from '../rest-links';
import { approval, approvalDecided, approvalIdParams, approvalPage, decideBody, listApprovalsQuery } from '../schemas/approvals.schemas';

const approvalParams = { approvalId: 'cmexampleid0000000000000' };

export const approvalRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/approvals',
    operationId: 'listApprovals',
    summary: 'List approvals',
    description:
      'Tool calls the team’s policy holds for a person, newest first, pending ones before the rest; `canDecide` says whether this token may decide each.',
    tag: 'approvals',
    procedure: 'approvals.list',
    query: listApprovalsQuery,
    response: approvalPage,
    responseDescription: 'A page of approvals',
    example: { query: { status: 'pending', limit: 20 } },
    handle: ({ caller, teamId, query }) => caller.approvals.list({ teamId, ...query }),
    headers: (page, { query }) => nextPageLink('/approvals', query, page.nextCursor),
  }),

  defineRoute({
    method: 'GET',
    path: '/approvals/{approvalId}',
    operationId: 'getApproval',
    summary: 'Get an approval',
    description: 'The exact call, who asked for it and why, and whether this token may decide it.',
    tag: 'approvals',
    procedure: 'approvals.get',
    params: approvalIdParams,
    response: approval,
    responseDescription: 'The approval',
    problems: [404],
    example: { params: approvalParams },
    handle: ({ caller, teamId, params }) => caller.approvals.get({ teamId, approvalId: params.approvalId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/approvals/{approvalId}/decision',
    operationId: 'decideApproval',
    summary: 'Approve or reject',
    description:
      'Decides a pending approval; the run goes on. An approval may need a higher role, and four-eyes keeps whoever gave the instruction the call follows from out of it.',
    tag: 'approvals',
    procedure: 'approvals.decide',
    params: approvalIdParams,
    body: decideBody,
    response: approvalDecided,
    responseDescription: 'The decision was recorded',
    problems: [404, 409, 412, 422],
    example: { params: approvalParams, body: { decision: 'reject', comment: 'Do not delete the fixtures' } },
    handle: ({ caller, teamId, params, body }) => caller.approvals.decide({ teamId, approvalId: params.approvalId, ...body }),
  }),
];
