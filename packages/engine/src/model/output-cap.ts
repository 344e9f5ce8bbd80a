import type { ModelResult } from '../ports/model-port';
import { utf8Length } from '../prompt/tokens';

/**
 * The most one model answer may hold, in UTF-8 bytes of its text, tool names and tool arguments
 * together (1 MiB). The request asks for at most the endpoint's `maxOutputTokens`; a server that
 * ignores it is stopped here: the OpenAI adapter stops reading the stream (and closes it) once an
 * answer passes this, and the engine cuts any port's answer to it before it is recorded.
 */
export const MODEL_OUTPUT_MAX_BYTES = 1024 * 1024;

/**
 * How much of one answer's streamed text the log keeps as `model.delta` events (UTF-16 units): a
 * live view of the answer while it is written, not a second copy of it. Past this the stream goes
 * on unlogged, and the answer is recorded once, whole (up to {@link MODEL_OUTPUT_MAX_BYTES}), in
 * `model.responded`.
 */
export const DELTA_LOG_MAX_CHARS = 64 * 1024;

/** Why an answer that passed `maxBytes` was cut (what the run records and the model is told). */
export function outputCapReason(maxBytes: number): string {
  return `the model's answer passed ${maxBytes} bytes, the most one answer may hold; the rest was not read`;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes` (a surrogate pair is never split). */
export function cutToBytes(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3 || utf8Length(text) <= maxBytes) return text;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) return text.slice(0, i);
    bytes += size;
    if (pair) i++;
  }
  return text;
}

/**
 * A successful answer held to `maxBytes`: unchanged when it fits (or an adapter already cut it and
 * said why). Otherwise its text is cut to fit and its tool calls are dropped (a call read only in
 * part cannot be run, and one whole call after a cut text would run on half an answer), with the
 * reason in `truncated` and `finishReason` `length`, as when a server stops at `max_tokens`.
 */
export function capModelResult(result: ModelResult, maxBytes = MODEL_OUTPUT_MAX_BYTES): ModelResult {
  if (!result.ok || result.truncated) return result;
  const callBytes = result.toolCalls.reduce((n, c) => n + utf8Length(c.name) + utf8Length(c.arguments), 0);
  if (callBytes + utf8Length(result.text) <= maxBytes) return result;
  return { ...result, text: cutToBytes(result.text, maxBytes), toolCalls: [], finishReason: 'length', truncated: outputCapReason(maxBytes) };
}
