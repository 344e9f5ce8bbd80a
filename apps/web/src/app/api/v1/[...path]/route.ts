import { handleRestRequest } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';

/**
 * The public REST API (`/api/v1/*`, documented at `/api/openapi.json`). Always a Bearer team API
 * token, never the session cookie; every route runs its tRPC procedure with the token's context,
 * so roles, team scope, events and audit rows are tRPC's. Errors are application/problem+json.
 */
async function handler(req: NextRequest): Promise<Response> {
  return handleRestRequest(req, {
    deps: apiDeps(),
    ip: clientIp(req.headers),
    onInternalError: (error) => logger().error({ err: error, path: req.nextUrl.pathname }, 'REST request failed'),
  });
}

// PUT is not an operation of the API; routing it here answers 405 with `Allow` as problem+json.
export { handler as GET, handler as POST, handler as PATCH, handler as DELETE, handler as PUT };
