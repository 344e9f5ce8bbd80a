import { MODEL_OUTPUT_MAX_BYTES, type ModelPort, type ModelResult, type ProviderError } from '@looplane/engine';
import { AddressRefusedError, modelEndpointPolicy, resolveOutboundTarget, type OutboundPolicy } from '@looplane/shared/net';
import OpenAI from 'openai';
import { z } from 'zod';
import { checkedFetch } from './checked-fetch';
import { readCompletion, readStream } from './read-completion';
import { toProviderError } from './provider-error';
import { wireNames } from './wire-names';
import { toChatRequest } from './to-chat-request';

/** Adapter settings kept in `ModelEndpoint.config` for an OpenAI-compatible endpoint (never secrets). */
export const openAIEndpointConfigSchema = z.object({
  /** Stream tokens (SSE). Some minimal servers only speak plain JSON. */
  stream: z.boolean().default(true),
  /** Ask for usage in the last streamed chunk (`stream_options.include_usage`); without it usage is estimated. */
  streamUsage: z.boolean().default(true),
  /** OpenAI's newer models want `max_completion_tokens`; most compatible servers still read `max_tokens`. */
  maxTokensParam: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
  temperature: z.number().min(0).max(2).optional(),
  /** Extra request headers (routing, org), never credentials: the key is passed separately. */
  headers: z.record(z.string(), z.string()).default({}),
});
export type OpenAIEndpointConfig = z.input<typeof openAIEndpointConfigSchema>;

export interface OpenAIModelOptions extends OpenAIEndpointConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per attempt (default 60 s). */
  timeoutMs?: number;
  /** Retries on 408/409/429/5xx and connection errors, with exponential backoff honouring Retry-After (default 3). */
  maxRetries?: number;
  /**
   * Where the client may connect, checked for every request at connect time (default: the model
   * endpoint policy with nothing allowed beyond it: no loopback, link-local or metadata address).
   */
  addresses?: OutboundPolicy;
  /** The most one answer may hold, in bytes (default `MODEL_OUTPUT_MAX_BYTES`, 1 MiB): reading stops there. */
  maxOutputBytes?: number;
}

/** The provider error for a base URL the address policy refuses now; null when it may be reached. */
async function refusal(baseURL: string, addresses: OutboundPolicy): Promise<ProviderError | null> {
  try {
    await resolveOutboundTarget(baseURL, addresses);
    return null;
  } catch (error) {
    if (error instanceof AddressRefusedError) return { code: 'bad_request', message: error.message, retryable: false };
    // Not resolving now is the connection's to report (and retry).
    return null;
  }
}

/**
 * A model port over any server that speaks Chat Completions, through the official `openai` SDK with
 * a configurable `baseURL`. Retries and backoff are the SDK's (0.5 s doubling to 8 s with jitter, or
 * the server's `retry-after-ms` / `Retry-After`); what still fails comes back as a provider error.
 */
export function createOpenAIModel(options: OpenAIModelOptions): ModelPort {
  const config = openAIEndpointConfigSchema.parse(options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const addresses = options.addresses ?? modelEndpointPolicy([]);
  const maxOutputBytes = options.maxOutputBytes ?? MODEL_OUTPUT_MAX_BYTES;
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: timeoutMs,
    maxRetries,
    defaultHeaders: config.headers,
    // Explicit so nothing is picked up from the worker's environment.
    organization: null,
    project: null,
    logLevel: 'off',
    // Every connection goes to an address the policy allows, and no redirect is followed.
    fetch: checkedFetch(addresses),
  });
  const errorContext = { baseURL: options.baseURL, timeoutMs, maxRetries, apiKey: options.apiKey };
  const chatOptions = { model: options.model, maxTokensParam: config.maxTokensParam, temperature: config.temperature };

  return {
    async complete(request, callOptions = {}): Promise<ModelResult> {
      const { signal, onDelta } = callOptions;
      const names = wireNames(request);
      const body = toChatRequest(names.encode(request), chatOptions);
      let phase: 'request' | 'stream' = 'request';
      // A refused address fails the call at once, without the SDK's retries (the connection itself
      // is checked again, whatever this said: a name may resolve elsewhere by then).
      const refused = await refusal(options.baseURL, addresses);
      if (refused) return { ok: false, error: refused };
      try {
        if (!config.stream) {
          const completion = await client.chat.completions.create({ ...body, stream: false }, { signal });
          return names.decode(readCompletion(completion, onDelta, maxOutputBytes));
        }
        const stream = await client.chat.completions.create(
          { ...body, stream: true, ...(config.streamUsage ? { stream_options: { include_usage: true } } : {}) },
          { signal },
        );
        phase = 'stream';
        const result = await readStream(stream, onDelta, maxOutputBytes);
        // The SDK ends a stream quietly when it is aborted: that partial answer must not pass as complete.
        signal?.throwIfAborted();
        return names.decode(result);
      } catch (error) {
        // The port contract: an abort rejects, a provider failure is a result.
        if (signal?.aborted) throw error;
        return { ok: false, error: toProviderError(error, errorContext, phase) };
      }
    },
  };
}
