import { handleTriggerHook, TriggerRateLimiter } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { clientIp } from '@/server/client-ip';
import { apiDeps } from '@/server/live';
import { logger } from '@/server/logger';
import { redis } from '@/server/redis';

export const dynamic = 'force-dynamic';

// One limiter per process, on the shared Redis (so every web process counts into one bucket per trigger).
const holder = globalThis as typeof globalThis & { __looplaneTriggerLimiter?: TriggerRateLimiter };

/**
 * An inbound trigger's public URL. No session or CSRF check applies: the trigger's secret (a
 * Standard Webhooks signature or a bearer secret) authenticates each delivery, and the handler
 * reads at most 256 KB of the body. Everything else is `handleTriggerHook`'s.
 */
export async function POST(req: NextRequest, ctx: { params: Promise<{ triggerId: string }> }): Promise<Response> {
  const { triggerId } = await ctx.params;
  holder.__looplaneTriggerLimiter ??= new TriggerRateLimiter(redis());
  return handleTriggerHook(req, triggerId, {
    deps: apiDeps(),
    limiter: holder.__looplaneTriggerLimiter,
    ip: clientIp(req.headers),
    onInternalError: (error) => logger().error({ err: error, triggerId }, 'trigger delivery failed'),
  });
}
