import { appRouter, createCallerFactory, createTrpcContext } from '@looplane/api';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { NextRequest } from 'next/server';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';
import { sessionClaims } from '@/server/session';

// What a session changed, read from the store now: never prerendered or cached.
export const dynamic = 'force-dynamic';

const createCaller = createCallerFactory(appRouter);

function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: { message } }), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/**
 * `GET /api/teams/{teamId}/sessions/{sessionId}/patch?base=N`: the session's changes as a
 * `git format-patch` series, an attachment named `<sessionId>.patch`, whole, for the dashboard's
 * session cookie (`GET /api/v1/sessions/{sessionId}/patch` takes only API tokens). It runs the
 * same `sessions.patch` procedure as the viewer, so the same role and team checks hold. Errors are
 * plain JSON (`{ error: { message } }`), like the workspace download: 401 signed out, 404 for a
 * session or team the viewer cannot see, 400 for a bad `base`, 412 when the run started empty.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ teamId: string; sessionId: string }> }): Promise<Response> {
  const { teamId, sessionId } = await ctx.params;
  const context = await createTrpcContext(apiDeps(), {
    authorization: req.headers.get('authorization'),
    session: await sessionClaims(req.cookies),
    ip: clientIp(req.headers),
  });
  if (!context.principal) return jsonError(401, 'Sign in or send a valid API token');
  const baseText = req.nextUrl.searchParams.get('base');
  if (baseText !== null && !/^[1-9]\d{0,9}$/.test(baseText)) return jsonError(400, 'base must be an event seq of the session (a whole number of at least 1)');
  try {
    const series = await createCaller(context).sessions.patch({ teamId, sessionId, whole: true, ...(baseText !== null ? { base: Number(baseText) } : {}) });
    // Ids are cuids; anything else is dropped so the header stays one quoted token.
    const filename = `${series.sessionId.replace(/[^A-Za-z0-9_-]/g, '')}.patch`;
    return new Response(series.patch, {
      headers: {
        'content-type': 'text/x-patch; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    // base was checked above: an input the procedure refuses is a malformed team or session id.
    if (error.code === 'BAD_REQUEST' && error.cause?.name === 'ZodError') return jsonError(404, 'No such session in this team');
    const status = getHTTPStatusCodeFromError(error);
    if (status < 500) return jsonError(status, error.message);
    logger().error({ err: error, path: req.nextUrl.pathname }, 'patch download failed');
    return jsonError(500, 'Internal server error');
  }
}
