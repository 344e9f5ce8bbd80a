import { appendAudit, type AuditActor, type Db, type Prisma } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { newDeliveryId, WEBHOOK_TEST_EVENT, webhookBody } from '@looplane/webhooks';
import type { ListDeliveriesInput } from '../routers/webhooks.schema';
import { teamWebhook } from './webhooks.service';

type Actor = AuditActor & { userId: string };

const deliveryColumns = {
  id: true,
  eventType: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  leaseUntil: true,
  lastAttemptAt: true,
  lastStatusCode: true,
  lastError: true,
  deliveredAt: true,
  createdAt: true,
  body: true,
  attemptsLog: {
    orderBy: { number: 'asc' },
    take: 100,
    select: { number: true, at: true, statusCode: true, latencyMs: true, responseExcerpt: true, error: true },
  },
} as const satisfies Prisma.WebhookDeliverySelect;
type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliveryColumns }>;

/**
 * A delivery as the log shows it. `id` is the `webhook-id` header of every attempt; `attemptLog`
 * holds each attempt's status code, latency, first KiB of the answer and error; `nextAttemptAt`
 * is set while it is pending; `inFlight` while an attempt is being made.
 */
function present({ attemptsLog, leaseUntil, nextAttemptAt, ...row }: DeliveryRow, now: Date) {
  return {
    ...row,
    nextAttemptAt: row.status === 'pending' ? nextAttemptAt : null,
    inFlight: leaseUntil !== null && leaseUntil > now,
    attemptLog: attemptsLog,
  };
}

/** An endpoint's deliveries, newest first, a page at a time (`nextCursor`: pass it back for the next page). */
export async function listDeliveries(db: Db, teamId: string, input: ListDeliveriesInput) {
  await teamWebhook(db, teamId, input.webhookId);
  if (input.cursor) {
    const known = await db.webhookDelivery.findFirst({ where: { id: input.cursor, endpointId: input.webhookId }, select: { id: true } });
    if (!known) throw new AppError('BAD_REQUEST', 'cursor: not a delivery of this webhook');
  }
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId: input.webhookId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
    select: deliveryColumns,
  });
  const now = new Date();
  const page = rows.slice(0, input.limit);
  return { items: page.map((row) => present(row, now)), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

/** The endpoint must be enabled to be sent anything. */
function requireEnabled(endpoint: { disabledAt: Date | null; disabledReason: string | null }): void {
  if (endpoint.disabledAt) {
    throw new AppError('PRECONDITION_FAILED', `The webhook is disabled (${endpoint.disabledReason ?? 'no reason recorded'}); enable it first`);
  }
}

/**
 * Sends the delivery again, with the same `webhook-id` and body (a receiver that already has it
 * can tell), from the start of the retry schedule. The worker's dispatcher gives it a job within
 * its poll interval. Refused while an attempt is in flight and while the endpoint is disabled.
 */
export async function redeliver(db: Db, actor: Actor, teamId: string, deliveryId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, teamId },
      select: { id: true, status: true, eventType: true, endpointId: true, leaseUntil: true, endpoint: { select: { disabledAt: true, disabledReason: true } } },
    });
    if (!delivery) throw new AppError('NOT_FOUND', 'No such delivery in this team');
    requireEnabled(delivery.endpoint);
    const now = new Date();
    if (delivery.leaseUntil && delivery.leaseUntil > now) throw new AppError('CONFLICT', 'An attempt of this delivery is in flight; try again when it ends');
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'pending', scheduleStep: 0, nextAttemptAt: now, enqueuedAt: null, deliveredAt: null, updatedAt: now },
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'webhook.redelivered',
      targetType: 'webhook',
      targetId: delivery.endpointId,
      data: { deliveryId, eventType: delivery.eventType, previousStatus: delivery.status },
    });
    return { id: deliveryId, status: 'pending' as const };
  });
}

/**
 * Sends a `webhook.test` event to the endpoint now, through the same delivery path as every event
 * (a delivery row the dispatcher gives a job, the processor signs and sends, retries and logs).
 */
export async function sendTestEvent(db: Db, actor: Actor, teamId: string, webhookId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const endpoint = await teamWebhook(tx, teamId, webhookId);
    requireEnabled(endpoint);
    const id = newDeliveryId();
    const now = new Date();
    const body = webhookBody(WEBHOOK_TEST_EVENT, now.toISOString(), { webhookId, message: 'A test event from Looplane', requestedById: actor.userId });
    await tx.webhookDelivery.create({
      data: { id, teamId, endpointId: webhookId, eventType: WEBHOOK_TEST_EVENT, body, status: 'pending', nextAttemptAt: now, createdAt: now, updatedAt: now },
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'webhook.test_sent',
      targetType: 'webhook',
      targetId: webhookId,
      data: { deliveryId: id, url: endpoint.url },
    });
    return { deliveryId: id };
  });
}
