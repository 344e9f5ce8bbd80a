import type { Db } from '@looplane/db';
import { newDeliveryId } from '@looplane/webhooks';
import type { TeamFixture } from '../testing/fixtures';

let made = 0;

/** A webhook endpoint of the team, straight in the database (its secret sealed elsewhere: these tests never deliver). */
async function webhookOf(db: Db, teamId: string): Promise<string> {
  const row = await db.webhookEndpoint.create({
    data: { teamId, url: `https://hooks.example.test/${made++}`, events: ['run.finished'], secretCiphertext: 'v1.sealed-elsewhere' },
  });
  return row.id;
}

/** A failed delivery of a fresh endpoint of the team (one that may be redelivered). */
async function failedDeliveryOf(db: Db, teamId: string): Promise<string> {
  const endpointId = await webhookOf(db, teamId);
  const row = await db.webhookDelivery.create({
    data: { id: newDeliveryId(), teamId, endpointId, eventType: 'webhook.test', body: '{}', status: 'failed', attempts: 11 },
  });
  return row.id;
}

/** The authorization matrix's cases for the `webhooks` router: admin only, each call on a resource of its own. */
export function webhookMatrix(db: () => Db) {
  const own = (fx: TeamFixture) => webhookOf(db(), fx.teamId);
  return {
    'webhooks.list': { access: 'admin', input: (fx: TeamFixture) => ({ teamId: fx.teamId }) },
    'webhooks.get': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await own(fx) }) },
    // 127.0.0.1: the matrix's API allows private addresses (nothing listens there; nothing is sent).
    'webhooks.create': {
      access: 'admin',
      input: (fx: TeamFixture) => ({ teamId: fx.teamId, url: `http://127.0.0.1:9/hook-${made++}`, events: ['run.finished'], description: 'matrix' }),
    },
    'webhooks.update': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await own(fx), description: `edit ${made++}` }) },
    'webhooks.delete': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await own(fx) }) },
    'webhooks.rotateSecret': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await own(fx) }) },
    'webhooks.test': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await own(fx) }) },
    'webhooks.deliveries': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await own(fx), limit: 5 }) },
    'webhooks.redeliver': { access: 'admin', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, deliveryId: await failedDeliveryOf(db(), fx.teamId) }) },
  } as const;
}

/** The other team's endpoints and deliveries named with the caller's own team id: each NOT_FOUND. */
export function webhookCrossTeam(db: () => Db) {
  const foreign = (fx: TeamFixture) => webhookOf(db(), fx.otherTeamId);
  return {
    'webhooks.get': async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await foreign(fx) }),
    'webhooks.update': async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await foreign(fx), url: 'http://127.0.0.1:9/hijack' }),
    'webhooks.delete': async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await foreign(fx) }),
    'webhooks.rotateSecret': async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await foreign(fx) }),
    'webhooks.test': async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await foreign(fx) }),
    'webhooks.deliveries': async (fx: TeamFixture) => ({ teamId: fx.teamId, webhookId: await foreign(fx) }),
    'webhooks.redeliver': async (fx: TeamFixture) => ({ teamId: fx.teamId, deliveryId: await failedDeliveryOf(db(), fx.otherTeamId) }),
  };
}
