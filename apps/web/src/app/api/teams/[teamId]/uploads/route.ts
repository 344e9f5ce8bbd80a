import { handleTeamUpload } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { env } from '@/env';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';
import { sessionClaims } from '@/server/session';

export const dynamic = 'force-dynamic';

/**
 * An archive upload from the dashboard (session cookie): `POST /api/v1/uploads` as the team's
 * member, with the same body, limits, checks and answers (201 with the upload, problem+json
 * errors). Cookie POSTs from other sites are refused.
 */
export async function POST(req: NextRequest, ctx: { params: Promise<{ teamId: string }> }): Promise<Response> {
  const { teamId } = await ctx.params;
  const publicUrl = env().NEXTAUTH_URL;
  return handleTeamUpload(req, teamId, {
    deps: apiDeps(),
    session: await sessionClaims(req.cookies),
    ip: clientIp(req.headers),
    ...(publicUrl ? { allowedOrigins: [new URL(publicUrl).origin] } : {}),
    onInternalError: (error) => logger().error({ err: error, path: req.nextUrl.pathname }, 'upload failed'),
  });
}
