import type { PromptMessage, ToolDefinition } from '../ports/model-port';

/** Per-message framing tokens (role markers, separators) every chat format spends. */
const MESSAGE_OVERHEAD_TOKENS = 4;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL; this finds any character outside it.
const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 byte length of a string, counted without allocating an encoded copy. */
export function utf8Length(text: string): number {
  // Most prompt text is ASCII: one native scan instead of a JavaScript loop.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one code point: four bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Token estimate used for budgets and compaction: one token per three UTF-8 bytes. Deliberately
 * conservative (English averages ~4 bytes a token) because a reservation must cover the worst case.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 3);
}

/** Estimated tokens of one prompt message. The engine keeps a running sum of these per context item. */
export function messageTokens(message: PromptMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) tokens += estimateTokens(call.name) + estimateTokens(call.arguments);
  }
  return tokens;
}

/** Estimated tokens of one tool definition as sent to the model. */
export function toolDefinitionTokens(definition: ToolDefinition): number {
  return estimateTokens(JSON.stringify(definition));
}

/** Estimated prompt tokens of a whole request: what a reservation must cover on the input side. */
export function estimatePromptTokens(messages: readonly PromptMessage[], tools: readonly ToolDefinition[]): number {
  let tokens = 0;
  for (const message of messages) tokens += messageTokens(message);
  for (const tool of tools) tokens += toolDefinitionTokens(tool);
  return tokens;
}

/** UTF-8 bytes of a value serialised as JSON. */
export function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value));
}

/** Bytes of a request body's prompt part (messages + tool definitions), the figure on-demand loading saves. */
export function promptBytes(messages: readonly PromptMessage[], tools: readonly ToolDefinition[]): number {
  return utf8Length(JSON.stringify({ messages, tools }));
}
