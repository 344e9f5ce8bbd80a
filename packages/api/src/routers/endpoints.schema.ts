import { z } from 'zod';
import { idSchema, nameSchema } from '../schemas';

const micros = z.int().min(0).max(1_000_000_000);
const baseUrl = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.openai.com/v1' }));
const modelName = z.string().trim().min(1).max(200);
/** Provider keys are opaque; bound them and refuse whitespace inside (a pasted newline is a mistake). */
const apiKey = z.string().trim().min(8, 'must be at least 8 characters').max(500).regex(/^\S+$/, 'must not contain spaces');

const settings = {
  model: modelName,
  /** Prices in micro-dollars per million tokens (1 USD per MTok = 1000000). */
  inputMicrosPerMTok: micros,
  outputMicrosPerMTok: micros,
  contextWindow: z.int().min(1024).max(10_000_000),
  maxOutputTokens: z.int().min(1).max(1_000_000),
  timeoutMs: z.int().min(1000).max(600_000),
  maxRetries: z.int().min(0).max(10),
};

/** `endpoints.create`: an OpenAI-compatible endpoint needs a base URL and a key; a faux one neither. */
export const createEndpointInput = z
  .object({
    name: nameSchema,
    kind: z.enum(['openai', 'faux']),
    baseUrl: baseUrl.optional(),
    apiKey: apiKey.optional(),
    model: settings.model,
    inputMicrosPerMTok: settings.inputMicrosPerMTok.default(0),
    outputMicrosPerMTok: settings.outputMicrosPerMTok.default(0),
    contextWindow: settings.contextWindow.default(128_000),
    maxOutputTokens: settings.maxOutputTokens.default(4096),
    timeoutMs: settings.timeoutMs.default(60_000),
    maxRetries: settings.maxRetries.default(3),
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'openai') {
      if (!input.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'an openai endpoint needs a base URL' });
      if (!input.apiKey) ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'an openai endpoint needs an API key' });
    } else if (input.baseUrl || input.apiKey) {
      ctx.addIssue({ code: 'custom', path: [input.baseUrl ? 'baseUrl' : 'apiKey'], message: 'a faux endpoint takes no base URL or key' });
    }
  });
export type CreateEndpointInput = z.infer<typeof createEndpointInput>;

/** `endpoints.update`: only the fields given change; `apiKey` replaces the stored key. */
export const updateEndpointInput = z
  .object({
    endpointId: idSchema,
    name: nameSchema.optional(),
    baseUrl: baseUrl.optional(),
    apiKey: apiKey.optional(),
    model: settings.model.optional(),
    inputMicrosPerMTok: settings.inputMicrosPerMTok.optional(),
    outputMicrosPerMTok: settings.outputMicrosPerMTok.optional(),
    contextWindow: settings.contextWindow.optional(),
    maxOutputTokens: settings.maxOutputTokens.optional(),
    timeoutMs: settings.timeoutMs.optional(),
    maxRetries: settings.maxRetries.optional(),
  })
  .refine((input) => Object.keys(input).some((key) => key !== 'endpointId' && key !== 'teamId'), { message: 'nothing to change' });
export type UpdateEndpointInput = z.infer<typeof updateEndpointInput>;

export const endpointRefInput = z.object({ endpointId: idSchema });
