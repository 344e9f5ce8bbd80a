import type { Db } from '@looplane/db';
import type { Role } from '@looplane/shared';
import { resolvePrincipal, resolveTeamRole } from '../auth/principal';

/** A caller of `/api/mcp` that passed authentication: always an API token, always one team. */
interface McpCaller {
  authorization: string;
  teamId: string;
  role: Role;
}

export type McpAuthResult = { ok: true; caller: McpCaller } | { ok: false; response: Response };

function refuse(status: 401 | 403, message: string): McpAuthResult {
  // JSON-RPC shaped so MCP clients surface the message; 401 carries the Bearer challenge.
  const body = { jsonrpc: '2.0', error: { code: -32001, message }, id: null };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="looplane"';
  return { ok: false, response: new Response(JSON.stringify(body), { status, headers }) };
}

/**
 * Authenticates an MCP request. Unlike tRPC, a session cookie never counts: only a valid
 * `Authorization: Bearer llp_…` team token (401 otherwise). The team is the token's team; a
 * request naming another team (`?teamId=`) or a token whose creator left the team gets 403.
 */
export async function authenticateMcp(db: Db, request: Request): Promise<McpAuthResult> {
  const authorization = request.headers.get('authorization');
  if (!authorization || authorization.trim() === '') return refuse(401, 'Send a team API token: Authorization: Bearer llp_…');
  const principal = await resolvePrincipal(db, { authorization, session: null });
  if (principal?.kind !== 'token') return refuse(401, 'The API token is invalid, revoked or expired');
  const wanted = new URL(request.url).searchParams.get('teamId');
  if (wanted !== null && wanted !== principal.teamId) return refuse(403, 'This token belongs to another team');
  const role = await resolveTeamRole(db, principal, principal.teamId);
  if (!role) return refuse(403, 'The token’s owner is no longer a member of its team');
  return { ok: true, caller: { authorization, teamId: principal.teamId, role } };
}
