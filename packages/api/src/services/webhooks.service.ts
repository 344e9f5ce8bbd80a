import { appendAudit, deleteWebhookEndpoint, skipPendingWebhookDeliveries, type AuditActor, type Db, type Prisma, type SecretBox, type Tx } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { generateSigningSecret, resolveWebhookTarget } from '@looplane/webhooks';
import type { CreateWebhookInput, UpdateWebhookInput } from '../routers/webhooks.schema';

type Actor = AuditActor & { userId: string };

/**
 * Where webhooks may be delivered, as this server checks it at create and update time (the worker
 * checks again at every attempt). `allowPrivate` is LOOPLANE_WEBHOOKS_ALLOW_PRIVATE.
 */
export interface WebhookSettings {
  allowPrivate: boolean;
}

/** The columns an endpoint shows through the API: never its signing secret, sealed or not. */
const publicColumns = {
  id: true,
  url: true,
  description: true,
  events: true,
  disabledAt: true,
  disabledReason: true,
  failingSince: true,
  secretRotatedAt: true,
  createdById: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookEndpointSelect;
type PublicRow = Prisma.WebhookEndpointGetPayload<{ select: typeof publicColumns }>;

const present = (row: PublicRow) => ({ ...row, enabled: row.disabledAt === null });

/** An endpoint of the team; NOT_FOUND otherwise (also for another team's id). */
export async function teamWebhook(db: Db | Tx, teamId: string, webhookId: string) {
  const row = await db.webhookEndpoint.findFirst({ where: { id: webhookId, teamId }, select: publicColumns });
  if (!row) throw new AppError('NOT_FOUND', 'No such webhook in this team');
  return row;
}

/** A new signing secret and its sealed form; refused when the server has no key to seal it with. */
function newSecret(box: SecretBox | null): { secret: string; secretCiphertext: string } {
  if (!box) throw new AppError('PRECONDITION_FAILED', 'This server has no LOOPLANE_ENCRYPTION_KEY, so it cannot store webhook signing secrets');
  const secret = generateSigningSecret();
  return { secret, secretCiphertext: box.seal(secret) };
}

/**
 * Whether the URL may be delivered to now: its host resolves to public addresses only (unless
 * private ones are allowed). The admin choosing the URL is the allow-list; the team policy's
 * `egress.allow` is not used, as adding a host there would also open it to the team's agents.
 */
async function checkTarget(url: string, settings: WebhookSettings): Promise<void> {
  try {
    await resolveWebhookTarget(url, settings);
  } catch (error) {
    if (error instanceof AppError) throw new AppError('BAD_REQUEST', `url: ${error.message}`);
    throw error;
  }
}

/** The team's endpoints, each with its latest delivery. */
export async function listWebhooks(db: Db, teamId: string) {
  const rows = await db.webhookEndpoint.findMany({
    where: { teamId },
    select: {
      ...publicColumns,
      deliveries: {
        take: 1,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { id: true, eventType: true, status: true, lastStatusCode: true, createdAt: true },
      },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(({ deliveries, ...row }) => ({ ...present(row), lastDelivery: deliveries[0] ?? null }));
}

/** One endpoint with its deliveries counted by status. */
export async function getWebhook(db: Db, teamId: string, webhookId: string) {
  const row = await teamWebhook(db, teamId, webhookId);
  const counts = await db.webhookDelivery.groupBy({ by: ['status'], where: { endpointId: webhookId }, _count: { _all: true } });
  const deliveries = { pending: 0, delivered: 0, failed: 0, skipped: 0 };
  for (const c of counts) deliveries[c.status] = c._count._all;
  return { ...present(row), deliveries };
}

/**
 * Creates an endpoint and its signing secret (`whsec_…`), sealed at rest; the secret is in this
 * answer only. The URL must resolve to public addresses (unless private ones are allowed).
 */
export async function createWebhook(
  db: Db,
  box: SecretBox | null,
  settings: WebhookSettings,
  actor: Actor,
  teamId: string,
  input: CreateWebhookInput,
  ip: string | null,
) {
  const { secret, secretCiphertext } = newSecret(box);
  await checkTarget(input.url, settings);
  return db.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.create({
      data: { teamId, url: input.url, events: input.events, description: input.description, secretCiphertext, createdById: actor.userId },
      select: publicColumns,
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'webhook.created',
      targetType: 'webhook',
      targetId: row.id,
      data: { url: row.url, events: row.events, description: row.description },
    });
    return { webhook: present(row), secret };
  });
}

/**
 * Changes the given fields. `enabled: false` disables the endpoint (its pending deliveries are
 * skipped); `enabled: true` re-enables it, forgetting why it was disabled and how long it failed.
 *
 * Lock order: the endpoint row (its update) before its delivery rows (the skip, in id order), the
 * order every writer of both takes them in (the worker's attempt outcome and disable, the delete's cascade).
 */
export async function updateWebhook(db: Db, settings: WebhookSettings, actor: Actor, teamId: string, input: UpdateWebhookInput, ip: string | null) {
  const { webhookId, enabled, teamId: _teamId, ...fields } = input as UpdateWebhookInput & { teamId?: string };
  const current = await teamWebhook(db, teamId, webhookId);
  if (fields.url !== undefined && fields.url !== current.url) await checkTarget(fields.url, settings);
  return db.$transaction(async (tx) => {
    await teamWebhook(tx, teamId, webhookId);
    const wasEnabled = current.disabledAt === null;
    const toggle: Prisma.WebhookEndpointUpdateInput =
      enabled === false && wasEnabled
        ? { disabledAt: new Date(), disabledReason: 'disabled by an admin' }
        : enabled === true && !wasEnabled
          ? { disabledAt: null, disabledReason: null, failingSince: null }
          : {};
    const row = await tx.webhookEndpoint.update({ where: { id: webhookId }, data: { ...fields, ...toggle }, select: publicColumns });
    const skipped = enabled === false && wasEnabled ? await skipPendingWebhookDeliveries(tx, webhookId, new Date()) : 0;
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'webhook.updated',
      targetType: 'webhook',
      targetId: webhookId,
      data: { url: row.url, changes: { ...fields, ...(enabled !== undefined ? { enabled } : {}) }, ...(skipped ? { skippedDeliveries: skipped } : {}) },
    });
    return present(row);
  });
}

/**
 * Deletes an endpoint with its delivery log (the audit rows keep what it was). Lock order: the
 * endpoint row, then its deliveries in id order (before the foreign key's cascade), as every writer of both.
 */
export async function deleteWebhook(db: Db, actor: Actor, teamId: string, webhookId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const current = await teamWebhook(tx, teamId, webhookId);
    // Gone since the read above: another delete won.
    if (!(await deleteWebhookEndpoint(tx, webhookId))) throw new AppError('NOT_FOUND', 'No such webhook in this team');
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'webhook.deleted',
      targetType: 'webhook',
      targetId: webhookId,
      data: { url: current.url, events: current.events },
    });
    return { id: webhookId, deleted: true };
  });
}

/**
 * Replaces the signing secret; the new one is in this answer only. Every attempt reads the secret
 * when it is made, so the next delivery (and the next retry of a pending one) is signed with it.
 */
export async function rotateWebhookSecret(db: Db, box: SecretBox | null, actor: Actor, teamId: string, webhookId: string, ip: string | null) {
  const { secret, secretCiphertext } = newSecret(box);
  return db.$transaction(async (tx) => {
    await teamWebhook(tx, teamId, webhookId);
    const row = await tx.webhookEndpoint.update({ where: { id: webhookId }, data: { secretCiphertext, secretRotatedAt: new Date() }, select: publicColumns });
    await appendAudit(tx, { teamId, actor, ip, action: 'webhook.secret_rotated', targetType: 'webhook', targetId: webhookId, data: { url: row.url } });
    return { webhook: present(row), secret };
  });
}
