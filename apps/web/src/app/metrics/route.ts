import { metricsResponse } from '@looplane/telemetry';
import { env } from '@/env';
import { logger } from '@/server/logger';
import { metricsRegistry } from './registry';
import { supervisorRestartsText } from './supervisor-restarts';

/**
 * Prometheus text for the cluster (queue depth, runs, loops, events, approvals, spend). Never
 * public: every scrape sends `Authorization: Bearer $LOOPLANE_METRICS_TOKEN`.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const registry = metricsRegistry();
    const answer = await metricsResponse(request.headers.get('authorization'), env().LOOPLANE_METRICS_TOKEN, async () => ({
      body: (await registry.metrics()) + (await supervisorRestartsText(env().LOOPLANE_SUPERVISOR_STATE)),
      contentType: registry.contentType,
    }));
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  } catch (error) {
    logger().warn({ err: error }, 'metrics scrape failed');
    return new Response('scrape failed\n', { status: 500, headers: { 'content-type': 'text/plain' } });
  }
}
