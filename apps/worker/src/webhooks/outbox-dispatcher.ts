import { withClient, type PgPool } from '@looplane/db';
import { ensureWebhookJob, type WebhookJob } from '@looplane/queue';
import { newDeliveryId, webhookBody, withDashboardLinks } from '@looplane/webhooks';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';

const NOW = `timezone('UTC', now())`;

// Rows are taken with SKIP LOCKED, so the dispatchers of every worker share the outbox; a row is
// deleted in the transaction that makes its deliveries, so it is turned into them exactly once.
const TAKE_SQL = `
WITH batch AS (SELECT id FROM "WebhookOutbox" ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
DELETE FROM "WebhookOutbox" o USING batch WHERE o.id = batch.id
RETURNING o.id::text AS id, o."teamId", o.type, o.data, o."endpointIds", to_char(o."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
  (SELECT t.slug FROM "Team" t WHERE t.id = o."teamId") AS slug`;

// One delivery per (outbox row, endpoint): the unique key makes a repeat a no-op. An endpoint
// disabled since the event gets a skipped delivery (the log shows it); a deleted one gets none.
const INSERT_SQL = `
INSERT INTO "WebhookDelivery" (id, "teamId", "endpointId", "outboxId", "eventType", body, status, "nextAttemptAt", "createdAt", "updatedAt")
SELECT x.id, x."teamId", x."endpointId", x."outboxId"::bigint, x."eventType", x.body,
  CASE WHEN e."disabledAt" IS NULL THEN 'pending' ELSE 'skipped' END::"WebhookDeliveryStatus",
  CASE WHEN e."disabledAt" IS NULL THEN ${NOW} END, ${NOW}, ${NOW}
FROM jsonb_to_recordset($1::jsonb) AS x(id text, "teamId" text, "endpointId" text, "outboxId" text, "eventType" text, body text)
JOIN "WebhookEndpoint" e ON e.id = x."endpointId" AND e."teamId" = x."teamId"
ON CONFLICT ("outboxId", "endpointId") DO NOTHING`;

// Pending deliveries no job was added for yet: new ones, redeliveries, tests, attempts a stopping worker gave back.
const UNQUEUED_SQL = `
SELECT id, GREATEST(0, EXTRACT(EPOCH FROM ("nextAttemptAt" - ${NOW})) * 1000)::int AS "dueInMs"
FROM "WebhookDelivery" WHERE status = 'pending' AND "enqueuedAt" IS NULL ORDER BY "createdAt" LIMIT $1`;

const MARK_SQL = `UPDATE "WebhookDelivery" SET "enqueuedAt" = ${NOW} WHERE id = ANY($1::text[]) AND "enqueuedAt" IS NULL`;

interface OutboxRow {
  id: string;
  teamId: string;
  type: string;
  data: Record<string, unknown>;
  endpointIds: string[];
  at: string;
  slug: string | null;
}

export interface OutboxDispatcherOptions {
  pool: PgPool;
  queue: Queue<WebhookJob>;
  /** LOOPLANE_PUBLIC_URL or NEXTAUTH_URL: the dashboard links in payloads (none without it). */
  publicUrl: string | null;
  logger: Logger;
  /** Outbox rows (and unqueued deliveries) per pass (default 200). */
  batch?: number;
}

/**
 * Turns outbox rows into deliveries, and deliveries into queue jobs (job id = delivery id, so
 * adding one twice is harmless). Each delivery's body is built here, once: every attempt sends
 * the same bytes. A process that dies after the commit and before the jobs were added leaves the
 * deliveries unqueued, and the next pass (of any worker) adds them.
 */
export class OutboxDispatcher {
  constructor(private readonly options: OutboxDispatcherOptions) {}

  /** One pass; returns how many deliveries were made and how many jobs added. */
  async pass(): Promise<{ made: number; queued: number }> {
    const made = await this.dispatch();
    const queued = await this.enqueue();
    return { made, queued };
  }

  private async dispatch(): Promise<number> {
    const { pool, publicUrl } = this.options;
    return withClient(pool, async (client) => {
      await client.query('BEGIN');
      const taken = (await client.query({ name: 'looplane_webhook_take_v1', text: TAKE_SQL, values: [this.options.batch ?? 200] })).rows as OutboxRow[];
      const deliveries = taken.flatMap((row) => {
        const data = withDashboardLinks(row.type, row.data, { slug: row.slug ?? row.teamId }, publicUrl);
        const body = webhookBody(row.type, row.at, data);
        return row.endpointIds.map((endpointId) => ({ id: newDeliveryId(), teamId: row.teamId, endpointId, outboxId: row.id, eventType: row.type, body }));
      });
      if (deliveries.length > 0) await client.query({ name: 'looplane_webhook_deliveries_v1', text: INSERT_SQL, values: [JSON.stringify(deliveries)] });
      await client.query('COMMIT');
      return deliveries.length;
    });
  }

  private async enqueue(): Promise<number> {
    const { pool, queue } = this.options;
    const due = (await pool.query({ name: 'looplane_webhook_unqueued_v1', text: UNQUEUED_SQL, values: [this.options.batch ?? 200] })).rows as {
      id: string;
      dueInMs: number;
    }[];
    for (const { id, dueInMs } of due) await ensureWebhookJob(queue, id, dueInMs);
    if (due.length > 0) await pool.query({ name: 'looplane_webhook_mark_v1', text: MARK_SQL, values: [due.map((d) => d.id)] });
    return due.length;
  }
}
