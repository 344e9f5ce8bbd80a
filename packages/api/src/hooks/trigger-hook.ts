import { recordTriggerDelivery, triggerForDelivery, triggerReceipt, type TriggerForDelivery } from '@looplane/db';
import { secretsEqual, verifySignedRequest, type SignatureRefusal } from '@looplane/webhooks';
import type { ApiDeps } from '../context';
import { readBounded } from '../http';
import { errorResponse, RestProblem } from '../rest/rest-problem';
import { idSchema } from '../schemas';
import { newId } from '@looplane/db';
import { queryableOf } from '@looplane/db';
import { deliverOnce, refused, repeatOf, type DeliveryOutcome } from './trigger-delivery';
import type { TriggerRateLimiter } from './trigger-rate-limit';

/** The largest delivery body read; a larger one is refused with 413 and not read further. */
export const MAX_HOOK_BODY_BYTES = 256 * 1024;
/** The longest `webhook-id` kept (the spec's ids are short; this bounds what a receipt stores). */
const MAX_WEBHOOK_ID_CHARS = 256;
const MAX_INT = 2_147_483_647;

export interface TriggerHookOptions {
  deps: ApiDeps;
  /** Each trigger's rate limit (Redis, shared by every web process). */
  limiter: TriggerRateLimiter;
  ip: string | null;
  /** The clock a signature's timestamp is checked against, in seconds (default: this machine's). */
  nowSeconds?: () => number;
  /** 5xx details go here, never to the sender. */
  onInternalError?: (error: unknown) => void;
}

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

const SIGNATURE_REASONS: Record<SignatureRefusal, string> = {
  missing_headers: 'webhook-id, webhook-timestamp and webhook-signature are required (Standard Webhooks)',
  bad_timestamp: 'webhook-timestamp must be a Unix time in seconds',
  stale_timestamp: 'webhook-timestamp is more than 5 minutes away from the server’s time (a replay, or a clock that is off)',
  bad_signature: 'webhook-signature does not match the body signed with the trigger’s secret',
};

/** A refusal as `application/problem+json`, the body every error of the API has. */
function problem(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return errorResponse(new RestProblem(status, CODES[status] ?? 'ERROR', detail, { headers }), 'body');
}

/** The same answer for an id that is malformed, unknown, or was deleted: nothing tells them apart. */
const notFound = () => problem(404, 'No such trigger');

/** JSON media types: `application/json` and any `+json` type, with or without parameters. */
function isJson(contentType: string | null): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Whether the request carries the trigger's secret (Standard Webhooks signature, or the bearer secret); the reason if not. */
function authRefusal(request: Request, trigger: TriggerForDelivery, secret: string, body: string, nowSeconds: number): string | null {
  if (trigger.auth === 'bearer') {
    const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    return given && secretsEqual(given, secret) ? null : 'Authorization: Bearer with the trigger’s secret is missing or wrong';
  }
  const headers = {
    id: request.headers.get('webhook-id') ?? undefined,
    timestamp: request.headers.get('webhook-timestamp') ?? undefined,
    signature: request.headers.get('webhook-signature') ?? undefined,
  };
  const verdict = verifySignedRequest(secret, headers, body, nowSeconds);
  return verdict.ok ? null : SIGNATURE_REASONS[verdict.refusal];
}

interface Handled {
  outcome: DeliveryOutcome;
  bytes: number;
  webhookId: string | null;
}

/**
 * One delivery to a known trigger, in the order that does the least for a stranger: the body
 * (bounded), whether the trigger is on, the secret, the JSON, a repeat of an accepted webhook-id
 * (answered with its run, before the rate limit: a sender's retry is not new work), the trigger's
 * rate limit, then the run or message.
 */
async function handle(request: Request, trigger: TriggerForDelivery, options: TriggerHookOptions): Promise<Handled> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  const raw = await readBounded(request, MAX_HOOK_BODY_BYTES);
  const webhookHeader = request.headers.get('webhook-id');
  const webhookId = webhookHeader && webhookHeader.length <= MAX_WEBHOOK_ID_CHARS ? webhookHeader : null;
  if (raw === null) {
    const bytes = Math.min(Number.isFinite(declared) && declared > MAX_HOOK_BODY_BYTES ? declared : MAX_HOOK_BODY_BYTES + 1, MAX_INT);
    return { outcome: refused(413, `The body is larger than ${MAX_HOOK_BODY_BYTES} bytes`), bytes, webhookId };
  }
  const done = (outcome: DeliveryOutcome): Handled => ({ outcome, bytes: raw.byteLength, webhookId });
  if (webhookHeader && !webhookId) return done(refused(400, `webhook-id is longer than ${MAX_WEBHOOK_ID_CHARS} characters`));
  let body: string;
  try {
    body = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return done(refused(400, 'The body is not UTF-8 text'));
  }
  if (!trigger.enabled) return done(refused(409, 'The trigger is disabled; an admin of its team can enable it'));

  const box = options.deps.secretBox;
  if (!box) return done({ ...refused(500, 'the server cannot open trigger secrets'), internal: new Error('LOOPLANE_ENCRYPTION_KEY is not set') });
  const nowSeconds = options.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  const unauthorized = authRefusal(request, trigger, box.open(trigger.secretCiphertext), body, nowSeconds);
  if (unauthorized) return done(refused(401, unauthorized));

  if (!isJson(request.headers.get('content-type'))) {
    return done(refused(415, `The body must be JSON (Content-Type: application/json), got ${request.headers.get('content-type') ?? 'none'}`));
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return done(refused(400, 'The body is not valid JSON'));
  }

  const q = queryableOf(options.deps.db);
  const earlier = webhookId ? await triggerReceipt(q, trigger.id, webhookId) : null;
  if (earlier && earlier.runId !== '') return done(repeatOf(earlier));
  const rate = await options.limiter.take(trigger.id, trigger.rateLimitPerMinute);
  if (!rate.admitted) {
    return done(refused(429, `The trigger took its ${trigger.rateLimitPerMinute} deliveries a minute (its rate limit)`, rate.retryAfterSeconds));
  }
  return done(await deliverOnce(options.deps, trigger, webhookId, payload, options.ip));
}

/** The answer: 202 with the run (and message) for an accepted delivery, else problem+json with the reason. */
function responseOf(outcome: DeliveryOutcome): Response {
  if (outcome.accepted && outcome.runId) {
    const body = outcome.messageId ? { runId: outcome.runId, messageId: outcome.messageId } : { runId: outcome.runId };
    return new Response(JSON.stringify(body), { status: outcome.status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  }
  const headers: Record<string, string> = outcome.retryAfterSeconds !== null ? { 'retry-after': String(outcome.retryAfterSeconds) } : {};
  return problem(outcome.status, outcome.reason ?? 'Refused', headers);
}

/**
 * `POST /api/hooks/{triggerId}`: the public URL of an inbound trigger, outside the team API. No
 * session, cookie or API token: the trigger's secret authenticates the request (a Standard
 * Webhooks signature within 5 minutes, or a bearer secret). An accepted delivery starts the
 * trigger's run, or sends its run a message, as the trigger's creator, and is answered 202 with
 * `{ runId }` (`{ runId, messageId }` for a message); a repeated `webhook-id` is answered with the
 * run of its first delivery and does nothing new. A malformed, unknown or deleted id is 404; every
 * other delivery, accepted or refused, is listed on the trigger with its status and reason.
 */
export async function handleTriggerHook(request: Request, triggerId: string, options: TriggerHookOptions): Promise<Response> {
  try {
    if (request.method !== 'POST') return problem(405, 'Deliveries are POST requests', { allow: 'POST' });
    if (!idSchema.safeParse(triggerId).success) return notFound();
    const trigger = await triggerForDelivery(queryableOf(options.deps.db), triggerId);
    if (!trigger) return notFound();
    const { outcome, bytes, webhookId } = await handle(request, trigger, options);
    if (outcome.internal !== undefined) options.onInternalError?.(outcome.internal);
    // The answer stands even when its record cannot be written (the trigger deleted meanwhile):
    // a run that started must still be named to the sender.
    await recordTriggerDelivery(queryableOf(options.deps.db), {
      id: newId(),
      triggerId: trigger.id,
      webhookId,
      status: outcome.status,
      accepted: outcome.accepted,
      reason: outcome.reason,
      runId: outcome.runId,
      bytes,
    }).catch((error: unknown) => options.onInternalError?.(error));
    return responseOf(outcome);
  } catch (error) {
    options.onInternalError?.(error);
    return problem(500, 'Internal server error');
  }
}
