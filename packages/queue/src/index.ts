export { QUEUES, sessionJobSchema, sessionJobId, type SessionJob, type QueueKey, type QueuePayload } from './catalog';
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
