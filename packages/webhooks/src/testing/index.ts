// Test helpers (`@looplane/webhooks/testing`): a real HTTP receiver and Standard Webhooks verification.
export { startReceiver, verifyReceived, type ReceivedRequest, type ReceiverReply, type TestReceiver, type VerifiedWebhook } from './receiver';
export { signWithReference } from './sign';
