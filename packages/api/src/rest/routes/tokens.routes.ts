import { defineRoute, type RestRoute } from '../rest-route';
import { createTokenBody, tokenCreated, tokenIdParams, tokenList, tokenRevoked } from '../schemas/admin.schemas';

export const tokenRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/tokens',
    operationId: 'listTokens',
    summary: 'List API tokens',
    description: 'Admins see every token of the team; others see the ones they made, of their own role or below.',
    tag: 'tokens',
    procedure: 'tokens.list',
    response: tokenList,
    responseDescription: 'The tokens, newest first',
    example: {},
    handle: ({ caller, teamId }) => caller.tokens.list({ teamId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/tokens',
    operationId: 'createToken',
    summary: 'Create an API token',
    description:
      'A team token with at most the caller’s role. The secret is in the response only. A token made with a token expires no later than it and is revoked with it.',
    tag: 'tokens',
    procedure: 'tokens.create',
    body: createTokenBody,
    response: tokenCreated,
    status: 201,
    responseDescription: 'The token, with its secret',
    problems: [422],
    example: { body: { name: 'ci', role: 'operator', expiresInDays: 90 } },
    handle: ({ caller, teamId, body }) => caller.tokens.create({ teamId, ...body }),
  }),

  defineRoute({
    method: 'DELETE',
    path: '/tokens/{tokenId}',
    operationId: 'revokeToken',
    summary: 'Revoke an API token',
    description: 'The next request with it (and with every token made with it) gets 401.',
    tag: 'tokens',
    procedure: 'tokens.revoke',
    params: tokenIdParams,
    response: tokenRevoked,
    responseDescription: 'The token was revoked',
    problems: [404, 409],
    example: { params: { tokenId: 'cmexampleid0000000000000' } },
    handle: ({ caller, teamId, params }) => caller.tokens.revoke({ teamId, tokenId: params.tokenId }),
  }),
];
