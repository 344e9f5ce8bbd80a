import { handleTrpcRequest } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';
import { sessionUserId } from '@/server/session';

/**
 * tRPC over HTTP. The caller is a Bearer API token (`Authorization` header, which wins when
 * present) or the next-auth session cookie; the API package enforces the 1 MiB body limit.
 */
async function handler(req: NextRequest): Promise<Response> {
  return handleTrpcRequest(req, {
    deps: apiDeps(),
    endpoint: '/api/trpc',
    sessionUserId: await sessionUserId(req.cookies),
    ip: clientIp(req.headers),
    onInternalError: (error, path) => logger().error({ err: error, path }, 'tRPC procedure failed'),
  });
}

export { handler as GET, handler as POST };
