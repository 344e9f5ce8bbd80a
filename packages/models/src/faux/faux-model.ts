import { createScriptedModel, scriptTurnSchema, type ModelPort } from '@looplane/engine';
import { z } from 'zod';

/**
 * `ModelEndpoint.config` of a faux endpoint: the script, and how long the fake model "thinks"
 * before its first token and between streamed chunks. Usage is the engine's deterministic estimate.
 */
export const fauxEndpointConfigSchema = z.object({
  script: z.array(scriptTurnSchema).default([]),
  finalText: z.string().default('Done.'),
  thinkMs: z.int().nonnegative().max(60_000).default(0),
  chunkDelayMs: z.int().nonnegative().max(5_000).default(0),
  chunkChars: z.int().positive().default(8),
});
export type FauxEndpointConfig = z.input<typeof fauxEndpointConfigSchema>;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The offline model: a scripted, deterministic model with simulated think time and paced
 * streaming, so every feature can be demonstrated without a network. Same script, same answers.
 */
export function createFauxModel(input: FauxEndpointConfig = {}): ModelPort {
  const config = fauxEndpointConfigSchema.parse(input);
  const scripted = createScriptedModel(config.script, { chunkChars: config.chunkChars, finalText: config.finalText });
  return {
    async complete(request, options = {}) {
      const { signal, onDelta } = options;
      await sleep(config.thinkMs, signal);
      const chunks: string[] = [];
      const result = await scripted.complete(request, { ...(signal ? { signal } : {}), onDelta: (text) => chunks.push(text) });
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await sleep(config.chunkDelayMs, signal);
        onDelta?.(chunk);
      }
      return result;
    },
  };
}
