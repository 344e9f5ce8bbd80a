import { capModelResult, cutToBytes, MODEL_OUTPUT_MAX_BYTES, outputCapReason, type ModelResult, type ModelToolCall } from '@looplane/engine';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';

/** An answer the engine cannot use; the usage it reported is still charged. */
function invalid(message: string, usage: { inputTokens: number; outputTokens: number } | null = null): ModelResult {
  return { ok: false, error: { code: 'invalid_response', message, retryable: false }, usage };
}

function usageOf(usage: { prompt_tokens: number; completion_tokens: number } | null | undefined) {
  return usage ? { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens } : null;
}

/**
 * Reads a non-streamed completion, held to `maxBytes` (the SDK has read the body by then: the cap
 * only keeps it out of the log). The text is passed to `onDelta` once, for live listeners.
 */
export function readCompletion(completion: ChatCompletion, onDelta?: (text: string) => void, maxBytes = MODEL_OUTPUT_MAX_BYTES): ModelResult {
  const choice = completion.choices[0];
  if (!choice) return invalid('the provider answered without any choice', usageOf(completion.usage));
  const toolCalls: ModelToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type === 'function') toolCalls.push({ name: call.function.name, arguments: call.function.arguments });
  }
  const result = capModelResult(
    { ok: true, text: choice.message.content ?? '', toolCalls, usage: usageOf(completion.usage), finishReason: choice.finish_reason ?? 'stop' },
    maxBytes,
  );
  if (result.ok && result.text) onDelta?.(result.text);
  return result;
}

/**
 * Reads a streamed completion: text deltas go to `onDelta` as they arrive; tool calls arrive as
 * fragments keyed by `index` (id and name first, arguments in pieces) and are assembled here.
 * Once the answer passes `maxBytes` (text, tool names and arguments, in UTF-8) reading stops: the
 * loop is left, which makes the SDK abort the request, so a server that ignores `max_tokens` is
 * not read to its end. The answer is then the text that fitted, marked `truncated`, without the
 * tool calls (one read in part cannot run).
 */
export async function readStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onDelta?: (text: string) => void,
  maxBytes = MODEL_OUTPUT_MAX_BYTES,
): Promise<ModelResult> {
  let text = '';
  let bytes = 0;
  const cut = (): ModelResult => ({ ok: true, text, toolCalls: [], usage, finishReason: 'length', truncated: outputCapReason(maxBytes) });
  let finishReason: string | null = null;
  let usage: { inputTokens: number; outputTokens: number } | null = null;
  let sawChoice = false;
  const calls = new Map<number, { name: string; arguments: string }>();
  for await (const chunk of stream) {
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) continue;
    sawChoice = true;
    const delta = choice.delta;
    if (delta.content) {
      const size = Buffer.byteLength(delta.content, 'utf8');
      const kept = bytes + size > maxBytes ? cutToBytes(delta.content, maxBytes - bytes) : delta.content;
      bytes += size;
      text += kept;
      if (kept) onDelta?.(kept);
      if (bytes > maxBytes) return cut();
    }
    for (const fragment of delta.tool_calls ?? []) {
      bytes += Buffer.byteLength(fragment.function?.name ?? '', 'utf8') + Buffer.byteLength(fragment.function?.arguments ?? '', 'utf8');
      if (bytes > maxBytes) return cut();
      const call = calls.get(fragment.index) ?? { name: '', arguments: '' };
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      calls.set(fragment.index, call);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!sawChoice) return invalid('the provider stream ended without any choice', usage);
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  if (toolCalls.some((c) => !c.name)) return invalid('the provider streamed a tool call without a name', usage);
  return { ok: true, text, toolCalls, usage, finishReason: finishReason ?? 'stop' };
}
