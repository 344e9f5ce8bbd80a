import { z } from 'zod';

/**
 * The events an endpoint may subscribe to. Each is captured by a trigger of the `webhooks`
 * migration in the transaction of the state change it reports:
 * - `run.finished`: a run's status became succeeded, failed or cancelled;
 * - `run.waiting`: a run started waiting, or waits for another reason now (approval, child, budget, message, isolation);
 * - `approval.requested`: a pending approval was opened (with a link to it in the dashboard);
 * - `approval.decided`: an approval left pending (approved, rejected, expired or cancelled);
 * - `budget.exceeded`: a reservation was refused by a ledger (the run's or a graph edge's);
 * - `graph.edge.exhausted`: the refusing ledger was a graph edge's (tokens, cost or calls);
 * - `schedule.paused`: a schedule paused itself after `pauseAfterFailures` failed runs in a row
 *   (written by the scheduler in the pause's transaction, not by a trigger).
 */
export const WEBHOOK_EVENT_TYPES = [
  'run.finished',
  'run.waiting',
  'approval.requested',
  'approval.decided',
  'budget.exceeded',
  'graph.edge.exhausted',
  'schedule.paused',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What `webhooks.test` sends; not subscribable, it goes to the one endpoint tested. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** A non-empty set of subscribable events (duplicates dropped, in catalog order). */
export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`))
  .min(1, 'subscribe to at least one event')
  .max(WEBHOOK_EVENT_TYPES.length * 2)
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));
