import { handleWorkspaceDownload } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { apiDeps } from '@/server/live';
import { sessionClaims } from '@/server/session';

// A download of files as they are in the store now: never prerendered or cached, Node runtime (git, Postgres).
export const dynamic = 'force-dynamic';

/**
 * A session's workspace at `?atEvent=N` (default: its latest committed event) as a tar.gz
 * attachment. Bearer token or session cookie; 401 / 404 / 400 as plain JSON, like the SSE routes.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ sessionId: string }> }): Promise<Response> {
  const { sessionId } = await ctx.params;
  return handleWorkspaceDownload(req, sessionId, apiDeps(), { session: await sessionClaims(req.cookies) });
}
