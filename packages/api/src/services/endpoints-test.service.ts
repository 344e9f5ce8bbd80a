import { recordAudit, type AuditActor, type Db, type SecretBox } from '@looplane/db';
import type { ModelResult } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { AppError } from '@looplane/shared';
import type { OutboundPolicy } from '@looplane/shared/net';
import { checkEndpointAddress } from './endpoint-address';
import { liveEndpoint } from './endpoints.service';

/** A test is a liveness check, not a run: one attempt, at most this long. */
const TEST_TIMEOUT_MS = 20_000;

export type EndpointTestResult =
  | { ok: true; latencyMs: number; model: string; text: string }
  | { ok: false; latencyMs: number; model: string; error: { code: string; message: string; status: number | null } };

/**
 * Makes one one-token call through the same adapter a run would use and reports the latency or
 * the provider's error (its message has the key redacted by the adapter). The key is opened here
 * only to build the client. The attempt leaves an `endpoint.tested` audit row.
 *
 * A base URL the address policy refuses gets the refusal `endpoints.create` gives, before any
 * connection: a test must not say whether something listens at an address no endpoint may reach.
 */
export async function testEndpoint(
  db: Db,
  box: SecretBox | null,
  addresses: OutboundPolicy,
  actor: AuditActor,
  teamId: string,
  endpointId: string,
  ip: string | null,
): Promise<EndpointTestResult> {
  const endpoint = await liveEndpoint(db, teamId, endpointId);
  if (endpoint.kind === 'openai' && endpoint.baseUrl) await checkEndpointAddress(endpoint.baseUrl, addresses);
  let key: string | null = null;
  if (endpoint.keyCiphertext) {
    if (!box) throw new AppError('PRECONDITION_FAILED', 'This server has no LOOPLANE_ENCRYPTION_KEY, so it cannot open the endpoint key');
    try {
      key = box.open(endpoint.keyCiphertext);
    } catch {
      throw new AppError('PRECONDITION_FAILED', `The key of endpoint ${endpoint.name} cannot be opened with this server's LOOPLANE_ENCRYPTION_KEY`);
    }
  }
  const model = createModelForEndpoint({ ...endpoint, timeoutMs: Math.min(endpoint.timeoutMs, TEST_TIMEOUT_MS), maxRetries: 0 }, key, addresses);
  const started = performance.now();
  const signal = AbortSignal.timeout(TEST_TIMEOUT_MS + 1000);
  const result = await model
    .complete(
      {
        requestId: `endpoint-test-${endpoint.id}`,
        purpose: 'turn',
        turn: 1,
        messages: [{ role: 'user', content: 'Reply with one word: ok' }],
        tools: [],
        maxOutputTokens: 1,
      },
      { signal },
    )
    // The adapter's own timeout answers first; this backstop only turns a stuck call into a result.
    .catch((error: unknown): ModelResult => {
      if (!signal.aborted) throw error;
      return { ok: false, error: { code: 'timeout', message: `no answer within ${TEST_TIMEOUT_MS + 1000} ms`, retryable: true } };
    });
  const latencyMs = Math.round(performance.now() - started);
  const outcome: EndpointTestResult = result.ok
    ? { ok: true, latencyMs, model: endpoint.model, text: result.text.slice(0, 200) }
    : {
        ok: false,
        latencyMs,
        model: endpoint.model,
        error: { code: result.error.code, message: result.error.message.slice(0, 1000), status: result.error.status ?? null },
      };
  await recordAudit(db, {
    teamId,
    actor,
    ip,
    action: 'endpoint.tested',
    targetType: 'endpoint',
    targetId: endpoint.id,
    data: { name: endpoint.name, ok: outcome.ok, latencyMs, ...(outcome.ok ? {} : { errorCode: outcome.error.code, status: outcome.error.status }) },
  });
  return outcome;
}
