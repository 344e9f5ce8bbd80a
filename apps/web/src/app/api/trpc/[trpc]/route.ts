import { handleTrpcRequest } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { env } from '@/env';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';
import { sessionClaims } from '@/server/session';

/**
 * tRPC over HTTP. The caller is a Bearer API token (`Authorization` header, which wins when
 * present) or the next-auth session cookie; the API package refuses cookie-authenticated POSTs
 * from other sites (403) and enforces the 1 MiB body limit. Besides the request's own origin, the
 * public URL (NEXTAUTH_URL) may send them, for proxies that pass another Host.
 */
async function handler(req: NextRequest): Promise<Response> {
  const publicUrl = env().NEXTAUTH_URL;
  return handleTrpcRequest(req, {
    deps: apiDeps(),
    endpoint: '/api/trpc',
    session: await sessionClaims(req.cookies),
    ip: clientIp(req.headers),
    ...(publicUrl ? { allowedOrigins: [new URL(publicUrl).origin] } : {}),
    onInternalError: (error, path) => logger().error({ err: error, path }, 'tRPC procedure failed'),
  });
}

export { handler as GET, handler as POST };
