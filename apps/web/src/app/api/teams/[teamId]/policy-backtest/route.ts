import { handlePolicyBacktestStream } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { env } from '@/env';
import { db } from '@/server/db';
import { logger } from '@/server/logger';
import { sessionClaims } from '@/server/session';

export const dynamic = 'force-dynamic';

/**
 * `policies.backtest` with progress as Server-Sent Events. POST (the candidate document is too
 * large for a URL), read by the dashboard with fetch; cookie POSTs from other sites are refused.
 */
export async function POST(req: NextRequest, ctx: { params: Promise<{ teamId: string }> }): Promise<Response> {
  const { teamId } = await ctx.params;
  const publicUrl = env().NEXTAUTH_URL;
  return handlePolicyBacktestStream(req, teamId, {
    db: db(),
    session: await sessionClaims(req.cookies),
    ...(publicUrl ? { allowedOrigins: [new URL(publicUrl).origin] } : {}),
    onError: (error) => logger().error({ err: error }, 'policy backtest failed'),
  });
}
