import { handleMcpRequest } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';
import packageJson from '../../../../package.json';

/**
 * Looplane's MCP server (streamable HTTP, stateless). Always a Bearer team API token, never the
 * session cookie; the tools call the tRPC procedures, so roles and team scope are tRPC's.
 */
async function handler(req: NextRequest): Promise<Response> {
  return handleMcpRequest(req, {
    deps: apiDeps(),
    ip: clientIp(req.headers),
    version: packageJson.version,
    onInternalError: (error) => logger().error({ err: error }, 'MCP tool failed'),
  });
}

export { handler as GET, handler as POST, handler as DELETE };
