import type { Db } from '../../client';
import { newId } from '../../vocabulary/ids';
import type { WebhookAttemptRecord } from '../delivery-attempts.repository';

/**
 * Fixtures of the webhook lock-order races (`@looplane/db/testing`): an endpoint whose deliveries a
 * worker has claimed, the attempt outcome that judges the endpoint, and a jitter that interleaves
 * the racers differently each iteration.
 */

/** An endpoint of `teamId` with `count` pending deliveries, each leased as a claim leaves it. */
export async function webhookEndpointWithClaimedDeliveries(
  db: Db,
  teamId: string,
  count: number,
  url = 'https://hooks.example.test/race',
): Promise<{ endpointId: string; deliveryIds: string[] }> {
  const endpoint = await db.webhookEndpoint.create({ data: { teamId, url, events: ['run.finished'], secretCiphertext: 'v1.sealed-elsewhere' } });
  const deliveryIds = Array.from({ length: count }, () => newId());
  const now = new Date();
  await db.webhookDelivery.createMany({
    data: deliveryIds.map((id) => ({
      id,
      teamId,
      endpointId: endpoint.id,
      eventType: 'run.finished',
      body: '{}',
      nextAttemptAt: now,
      leaseUntil: new Date(now.getTime() + 60_000),
    })),
  });
  return { endpointId: endpoint.id, deliveryIds };
}

/** A failed attempt that judges the endpoint: it sets the endpoint's failing-since. */
export const failedWebhookAttempt = (id: string): WebhookAttemptRecord => ({
  id,
  startedAt: new Date(),
  statusCode: 500,
  latencyMs: 3,
  responseExcerpt: 'down',
  error: 'HTTP 500',
  next: { kind: 'retry', retryInMs: 60_000, step: 1 },
  judgesEndpoint: true,
});

/** Waits a random 0–2 ms, so the racers interleave differently each iteration. */
export const raceJitter = () => new Promise<void>((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3)));
