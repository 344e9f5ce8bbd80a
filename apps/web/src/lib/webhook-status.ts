import type { BadgeTone } from '@/components/ui/badge';

/** What `webhooks.updateWebhook` writes when an admin disables an endpoint (any other reason is the worker's). */
const ADMIN_REASON = 'disabled by an admin';

/** The endpoint fields its state is read from (as `webhooks.list` and `webhooks.get` return them). */
export interface WebhookStateFields {
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
}

type WebhookStateKind = 'active' | 'failing' | 'disabled-by-admin' | 'disabled-automatically';

export interface WebhookState {
  kind: WebhookStateKind;
  label: string;
  tone: BadgeTone;
  /** Why it is disabled, as recorded (null while enabled). */
  reason: string | null;
}

/**
 * An endpoint's state as the dashboard shows it: enabled (and, when its attempts fail, since
 * when), disabled by an admin, or disabled by the worker after failing for the disable window or
 * on a 410 Gone (the recorded reason says which).
 */
export function webhookState(endpoint: WebhookStateFields): WebhookState {
  if (!endpoint.enabled) {
    const byAdmin = endpoint.disabledReason === ADMIN_REASON;
    return {
      kind: byAdmin ? 'disabled-by-admin' : 'disabled-automatically',
      // The reason is shown beside the label: for an admin's disabling it says who, so the label need not.
      label: byAdmin ? 'disabled' : 'disabled automatically',
      tone: byAdmin ? 'neutral' : 'danger',
      reason: endpoint.disabledReason ?? 'no reason recorded',
    };
  }
  if (endpoint.failingSince) return { kind: 'failing', label: 'failing', tone: 'warning', reason: null };
  return { kind: 'active', label: 'enabled', tone: 'success', reason: null };
}

type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export const DELIVERY_TONE: Record<DeliveryStatus, BadgeTone> = {
  pending: 'accent',
  delivered: 'success',
  failed: 'danger',
  skipped: 'neutral',
};

/**
 * One attempt's outcome in a few words: the HTTP status (with the error when it says more than
 * "answered <status>", e.g. a redirect not followed), or the error when there was no answer.
 */
export function attemptOutcome(attempt: { statusCode: number | null; error: string | null }): string {
  if (attempt.statusCode !== null) {
    const extra = attempt.error && attempt.error !== `answered ${attempt.statusCode}` ? ` (${attempt.error})` : '';
    return `HTTP ${attempt.statusCode}${extra}`;
  }
  return attempt.error ?? 'no outcome recorded (the attempt was interrupted)';
}
