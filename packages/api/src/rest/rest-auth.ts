import { roleAtLeast, type Role } from '@looplane/shared';
import { createTrpcContext, type ApiDeps, type Context } from '../context';
import { RestProblem } from './rest-problem';

/** A caller of `/api/v1` that passed authentication: always a team API token. */
export interface RestCallerIdentity {
  /** The tRPC context of the token (its principal resolved once, here). */
  context: Context;
  teamId: string;
  tokenId: string;
  role: Role;
}

const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer realm="looplane"' };

/**
 * Authenticates a REST request. Like `/api/mcp`, and unlike tRPC, a session cookie never
 * counts: only `Authorization: Bearer llp_…` (401 otherwise, with the Bearer challenge). The
 * team is the token's; a token whose creator left the team gets 403.
 */
export async function authenticateRest(deps: ApiDeps, request: Request, ip: string | null): Promise<RestCallerIdentity> {
  const authorization = request.headers.get('authorization');
  if (!authorization || authorization.trim() === '') {
    throw new RestProblem(401, 'UNAUTHORIZED', 'Send a team API token: Authorization: Bearer llp_…', { headers: BEARER_CHALLENGE });
  }
  const context = await createTrpcContext(deps, { authorization, session: null, ip });
  const principal = context.principal;
  if (principal?.kind !== 'token') {
    throw new RestProblem(401, 'UNAUTHORIZED', 'The API token is invalid, revoked or expired', { headers: BEARER_CHALLENGE });
  }
  if (!principal.teamRole) throw new RestProblem(403, 'FORBIDDEN', 'The token’s owner is no longer a member of its team');
  return { context, teamId: principal.teamId, tokenId: principal.tokenId, role: principal.teamRole };
}

/**
 * Refuses a route the token's role is below, before any input is read or an idempotency key is
 * taken, with the message the procedure itself would give (its role check still runs too).
 */
export function assertRole(identity: RestCallerIdentity, required: Role): void {
  if (!roleAtLeast(identity.role, required)) {
    throw new RestProblem(403, 'FORBIDDEN', `This action needs the ${required} role; you are ${identity.role}`);
  }
}
