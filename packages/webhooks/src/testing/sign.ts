import { Webhook } from 'standardwebhooks';

/**
 * The headers a sender using the `standardwebhooks` package (the spec's reference
 * implementation) would send for `body`: tests sign inbound deliveries with it, not with our own
 * signing code, so the receiving side is checked against an independent implementation.
 */
export function signWithReference(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}
