export { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, webhookEventsSchema, type WebhookEventType } from './events';
export { MAX_WEBHOOK_URL_LENGTH, webhookUrlSchema } from './endpoint-url';
export { resolveWebhookTarget, pinnedLookup, type EgressOptions, type WebhookTarget } from './egress';
export { SECRET_PREFIX, generateSigningSecret, newDeliveryId, signedHeaders } from './signing';
export { WEBHOOK_RETRY_SCHEDULE_MS, WEBHOOK_DISABLE_AFTER_MS, retryDelayMs } from './retry-schedule';
export { webhookBody, withDashboardLinks } from './body';
export { sendWebhook, RESPONSE_EXCERPT_BYTES, DEFAULT_ATTEMPT_TIMEOUT_MS, type WebhookAttemptOutcome, type WebhookAttemptRequest } from './send';
export {
  verifySignedRequest,
  secretsEqual,
  SIGNATURE_TOLERANCE_SECONDS,
  type SignedRequestHeaders,
  type SignatureVerdict,
  type SignatureRefusal,
} from './verify';
