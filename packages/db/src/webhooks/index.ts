// Outbound webhooks: the outbox turned into deliveries, the deliveries' queue jobs, each attempt's
// claim and outcome, the disabling of an endpoint that keeps failing, and an endpoint's deletion.
export { dispatchWebhookOutbox, type WebhookOutboxEvent, type NewWebhookDelivery } from './outbox.repository';
export { unqueuedWebhookDeliveries, markWebhookDeliveriesEnqueued, overdueWebhookDeliveries } from './delivery-queue.repository';
export { claimWebhookDelivery, type ClaimedWebhookDelivery, type WebhookClaim } from './delivery-claim.repository';
export {
  recordInterruptedWebhookAttempt,
  skipWebhookDelivery,
  recordWebhookAttemptOutcome,
  type WebhookAttemptRecord,
  type RecordedWebhookAttempt,
} from './delivery-attempts.repository';
export { disableWebhookEndpoint } from './endpoint-disable.repository';
export { deleteWebhookEndpoint } from './endpoint-delete.repository';
export { skipPendingWebhookDeliveries } from './pending-skip.repository';
