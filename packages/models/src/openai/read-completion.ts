import type { ModelResult, ModelToolCall } from '@looplane/engine';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';

/** An answer the engine cannot use; the usage it reported is still charged. */
function invalid(message: string, usage: { inputTokens: number; outputTokens: number } | null = null): ModelResult {
  return { ok: false, error: { code: 'invalid_response', message, retryable: false }, usage };
}

function usageOf(usage: { prompt_tokens: number; completion_tokens: number } | null | undefined) {
  return usage ? { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens } : null;
}

/** Reads a non-streamed completion. The whole text is passed to `onDelta` once, for live listeners. */
export function readCompletion(completion: ChatCompletion, onDelta?: (text: string) => void): ModelResult {
  const choice = completion.choices[0];
  if (!choice) return invalid('the provider answered without any choice', usageOf(completion.usage));
  const text = choice.message.content ?? '';
  if (text) onDelta?.(text);
  const toolCalls: ModelToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type === 'function') toolCalls.push({ name: call.function.name, arguments: call.function.arguments });
  }
  return { ok: true, text, toolCalls, usage: usageOf(completion.usage), finishReason: choice.finish_reason ?? 'stop' };
}

/**
 * Reads a streamed completion: text deltas go to `onDelta` as they arrive; tool calls arrive as
 * fragments keyed by `index` (id and name first, arguments in pieces) and are assembled here.
 */
export async function readStream(stream: AsyncIterable<ChatCompletionChunk>, onDelta?: (text: string) => void): Promise<ModelResult> {
  let text = '';
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
      text += delta.content;
      onDelta?.(delta.content);
    }
    for (const fragment of delta.tool_calls ?? []) {
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
