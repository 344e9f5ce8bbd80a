export {
  QUEUES,
  isolationQueueName,
  sessionJobSchema,
  sessionJobId,
  webhookJobSchema,
  type SessionJob,
  type WebhookJob,
  type QueueKey,
  type QueuePayload,
} from './catalog';
export { createWebhookQueue, ensureWebhookJob } from './webhook-queue';
export {
  channels,
  runEventMessageSchema,
  teamActivitySchema,
  cancelMessageSchema,
  type RunEventMessage,
  type TeamActivity,
  type CancelMessage,
} from './channels';
export { LiveBus } from './live-bus';
export { createSessionQueue, enqueueSession, enqueueSessions, type EnqueueOptions } from './session-queue';
