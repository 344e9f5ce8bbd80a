import { expect, type APIRequestContext } from '@playwright/test';
import { stack } from './stack';
import { trpcMutation } from './trpc-api';

/** What `teams.invite` answers (the code is shown only here). */
export interface Invited {
  invitation: { id: string; email: string; role: string };
  code: string;
  path: string;
}

/**
 * A person joins a team the way people do: the admin invites their email (here with the bootstrap
 * token), and they sign up with the invitation's code, which makes their account and accepts it.
 */
export async function inviteAndSignUp(request: APIRequestContext, teamId: string, email: string, role: string, password: string): Promise<void> {
  const invited = await trpcMutation<Invited>(request, 'teams.invite', stack.bootstrapToken, { teamId, email, role });
  const response = await request.post('/api/trpc/invitations.signUp', { data: { json: { code: invited.code, password } } });
  expect(response.status(), `invitations.signUp: ${await response.text()}`).toBe(200);
}
