import { handleTeamActivityStream } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { sessionClaims } from '@/server/session';
import { streamDeps } from '@/server/live';

export const dynamic = 'force-dynamic';

/** A team's live activity (run status changes, pending approvals) as Server-Sent Events. */
export async function GET(req: NextRequest, ctx: { params: Promise<{ teamId: string }> }): Promise<Response> {
  const { teamId } = await ctx.params;
  return handleTeamActivityStream(req, teamId, streamDeps(), { session: await sessionClaims(req.cookies) });
}
