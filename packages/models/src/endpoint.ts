import type { ModelLimits, ModelPort } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { OutboundPolicy } from '@looplane/shared/net';
import type { z } from 'zod';
import { createFauxModel, fauxEndpointConfigSchema } from './faux/faux-model';
import { createOpenAIModel, openAIEndpointConfigSchema } from './openai/openai-model';

/** The columns of a `ModelEndpoint` row an adapter needs (the key arrives decrypted, separately). */
export interface EndpointSettings {
  kind: 'openai' | 'faux';
  name: string;
  baseUrl: string | null;
  model: string;
  inputMicrosPerMTok: number;
  outputMicrosPerMTok: number;
  contextWindow: number;
  maxOutputTokens: number;
  timeoutMs: number;
  maxRetries: number;
  config: unknown;
}

function parseConfig<S extends z.ZodType>(schema: S, endpoint: EndpointSettings): z.output<S> {
  const parsed = schema.safeParse(endpoint.config ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError('BAD_REQUEST', `endpoint ${endpoint.name} has an invalid config at ${issue?.path.join('.') || 'root'}: ${issue?.message}`);
}

/**
 * Builds the model port for an endpoint. An OpenAI endpoint needs a base URL and a key; it
 * connects only where `addresses` allows (default: no loopback, link-local or other
 * special-purpose address; the processes pass the policy with LOOPLANE_ENDPOINTS_ALLOW).
 */
export function createModelForEndpoint(endpoint: EndpointSettings, apiKey: string | null, addresses?: OutboundPolicy): ModelPort {
  if (endpoint.kind === 'faux') return createFauxModel(parseConfig(fauxEndpointConfigSchema, endpoint));
  if (!endpoint.baseUrl) throw new AppError('BAD_REQUEST', `endpoint ${endpoint.name} has no base URL`);
  if (!apiKey) throw new AppError('BAD_REQUEST', `endpoint ${endpoint.name} has no API key (a key is dropped when the base URL changes: enter it again)`);
  return createOpenAIModel({
    ...(addresses ? { addresses } : {}),
    ...parseConfig(openAIEndpointConfigSchema, endpoint),
    baseURL: endpoint.baseUrl,
    apiKey,
    model: endpoint.model,
    timeoutMs: endpoint.timeoutMs,
    maxRetries: endpoint.maxRetries,
  });
}

/** The limits and prices a run records in its config, from the endpoint it runs on. */
export function modelLimitsOf(endpoint: EndpointSettings): ModelLimits {
  return {
    model: endpoint.model,
    contextWindow: endpoint.contextWindow,
    maxOutputTokens: endpoint.maxOutputTokens,
    inputMicrosPerMTok: endpoint.inputMicrosPerMTok,
    outputMicrosPerMTok: endpoint.outputMicrosPerMTok,
  };
}
