import { handleRunStream } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { sessionClaims } from '@/server/session';
import { streamDeps } from '@/server/live';

// A live stream: never prerendered, never cached, Node runtime (Redis and Postgres clients).
export const dynamic = 'force-dynamic';

/**
 * A run's events as Server-Sent Events, resuming after `Last-Event-ID`. Bearer token or session
 * cookie; 401 / 404 as plain JSON so curl and EventSource clients see real status codes.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ runId: string }> }): Promise<Response> {
  const { runId } = await ctx.params;
  return handleRunStream(req, runId, streamDeps(), { session: await sessionClaims(req.cookies) });
}
