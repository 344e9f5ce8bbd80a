import { createTestLive, type TestLive } from '@looplane/api/testing';
import { createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { startReceiver, type TestReceiver } from '@looplane/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePrefix, waitFor } from '../testing/test-runtime';
import { startTestWebhooks, webhookAdmin, type TestWebhooks } from '../testing/webhook-stack';

/**
 * The egress check at delivery: a worker without LOOPLANE_WEBHOOKS_ALLOW_PRIVATE refuses every
 * attempt to a non-public address (resolving the host again each time), whatever the endpoint's
 * URL was when it was saved, and never connects. The API here allows private addresses, as a
 * server with a different setting, or a host whose DNS changed since, would have let them in.
 */
let t: TestDatabase;
let live: TestLive;
let stack: TestWebhooks;
let receiver: TestReceiver;

beforeAll(async () => {
  t = await createTestDatabase();
  live = await createTestLive();
  stack = await startTestWebhooks(t.url, uniquePrefix('webhooks-egress'), { allowPrivate: false });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
  await live?.close();
  await t?.drop();
});

describe('egress at delivery', () => {
  it('refuses 127.0.0.1, 10.x, 169.254.x, ::1 and ::ffff:127.0.0.1 without connecting, and retries later', async () => {
    const teamId = await createTestTeam(t.db);
    const { api } = await webhookAdmin(t.db, live.dispatch, teamId);
    const port = new URL(receiver.url).port;
    const targets: [string, RegExp][] = [
      [`http://127.0.0.1:${port}/hook`, /127\.0\.0\.1 is a loopback address/],
      ['http://10.0.0.7/hook', /10\.0\.0\.7 is a private address/],
      ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a link-local address/],
      [`http://[::1]:${port}/hook`, /::1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${port}/hook`, /IPv4-mapped form of a loopback address/],
      [`http://localhost:${port}/hook`, /localhost resolves to .*, which is a loopback address/],
    ];
    for (const [url, reason] of targets) {
      const { webhook } = await api.webhooks.create({ teamId, url, events: ['run.finished'] });
      const { deliveryId } = await api.webhooks.test({ teamId, webhookId: webhook.id });
      const attempt = await waitFor(
        () => t.db.webhookAttempt.findFirst({ where: { deliveryId, number: 1 } }).then((a) => a ?? undefined),
        20_000,
        `an attempt to ${url}`,
      );
      expect(attempt, url).toMatchObject({ statusCode: null, error: expect.stringMatching(reason) });
      expect(attempt.error).toMatch(/webhooks go to public addresses only/);
      expect((await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe('pending');
    }
    expect(receiver.requests).toHaveLength(0);
  });
});
