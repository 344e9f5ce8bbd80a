import { AppError } from '@looplane/shared';
import { defineRoute, type RestRoute } from '../rest-route';
import { me } from '../schemas/admin.schemas';

export const meRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/me',
    operationId: 'getMe',
    summary: 'Who the token is',
    description: 'The token, the person it acts for, and its team with the role it has there.',
    tag: 'me',
    procedure: 'me',
    response: me,
    responseDescription: 'The token’s identity',
    example: {},
    handle: async ({ caller, teamId }) => {
      const who = await caller.me();
      const team = who.teams.find((t) => t.id === teamId);
      // The REST layer admits only tokens whose creator is still in the team, so both are present.
      if (!who.token || !team) throw new AppError('INTERNAL', 'me: a REST caller without its token or team');
      return { user: who.user, token: { id: who.token.id, role: who.token.role }, team };
    },
  }),
];
