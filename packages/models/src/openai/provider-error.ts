import type { ProviderError } from '@looplane/engine';
import { AddressRefusedError } from '@looplane/shared/net';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';

/** Removes the key (and anything shaped like an OpenAI key) from text bound for events and logs. */
function redact(text: string, apiKey: string): string {
  const withoutKey = apiKey ? text.split(apiKey).join('[redacted]') : text;
  return withoutKey.replace(/\bsk-[A-Za-z0-9_*.-]{6,}/g, 'sk-[redacted]');
}

function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.message.replace(/^\d{3}\s+/, '');
}

/**
 * Turns what the SDK threw (after its own retries) into a provider error with a message a human can
 * act on: who failed, with what status, what the server said, and how many retries were spent.
 */
export function toProviderError(
  error: unknown,
  context: { baseURL: string; timeoutMs: number; maxRetries: number; apiKey: string },
  phase: 'request' | 'stream' = 'request',
): ProviderError {
  const after = context.maxRetries > 0 ? ` (after ${context.maxRetries} ${context.maxRetries === 1 ? 'retry' : 'retries'})` : '';
  let result: ProviderError;
  if (error instanceof APIConnectionError && error.cause instanceof AddressRefusedError) {
    // The address policy refused the connection: no attempt reached a server, and none will.
    result = { code: 'bad_request', message: error.cause.message, retryable: false };
  } else if (error instanceof APIConnectionTimeoutError) {
    result = { code: 'timeout', message: `${context.baseURL} did not answer within ${context.timeoutMs} ms${after}`, retryable: true };
  } else if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    result = { code: 'connection', message: `could not reach ${context.baseURL}${cause}${after}`, retryable: true };
  } else if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    const code: ProviderError['code'] =
      status === 429
        ? 'rate_limited'
        : status === 401 || status === 403
          ? 'auth'
          : status === 404
            ? 'not_found'
            : status >= 500
              ? 'server_error'
              : 'bad_request';
    const retryable = status === 429 || status >= 500 || status === 408 || status === 409;
    result = { code, status, message: `provider returned ${status}: ${serverMessage(error)}${retryable ? after : ''}`, retryable };
  } else if (error instanceof APIError) {
    // An error event inside a stream: the SDK has no status for it.
    result = { code: 'server_error', message: `provider stream failed: ${serverMessage(error)}`, retryable: true };
  } else if (phase === 'stream') {
    // Streams are not retried: once tokens flowed, a retry could not be spliced onto them.
    const why = error instanceof Error ? error.message : String(error);
    result = { code: 'connection', message: `the answer stream from ${context.baseURL} broke off: ${why}`, retryable: true };
  } else {
    result = { code: 'invalid_response', message: `unreadable provider response: ${error instanceof Error ? error.message : String(error)}`, retryable: false };
  }
  return { ...result, message: redact(result.message, context.apiKey) };
}
