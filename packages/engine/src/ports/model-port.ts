/** One tool call inside an assistant message; `arguments` is JSON text, as the Chat Completions protocol carries it. */
export interface PromptToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A provider-neutral chat message. Adapters map it onto their wire format. */
export type PromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: PromptToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A JSON Schema object, passed to the provider untouched. */
export type JsonSchema = { [key: string]: unknown };

/** A function tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** What the engine asks of a model. `turn` counts completed model turns, so a scripted model can pick its reply. */
export interface ModelRequest {
  requestId: string;
  purpose: 'turn' | 'summary';
  turn: number;
  messages: readonly PromptMessage[];
  tools: readonly ToolDefinition[];
  maxOutputTokens: number;
}

/** A tool call as the model produced it; the engine parses the JSON and assigns its own id. */
export interface ModelToolCall {
  name: string;
  arguments: string;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export type ProviderErrorCode = 'rate_limited' | 'server_error' | 'bad_request' | 'auth' | 'not_found' | 'timeout' | 'connection' | 'invalid_response';

/** A provider failure after the adapter's own retries; it becomes a `model.failed` event. */
export interface ProviderError {
  code: ProviderErrorCode;
  message: string;
  status?: number;
  retryable: boolean;
}

export type ModelResult =
  | {
      ok: true;
      text: string;
      toolCalls: ModelToolCall[];
      usage: ModelUsage | null;
      finishReason: string;
      /**
       * Set when the answer was cut at the output cap (`MODEL_OUTPUT_MAX_BYTES`): why. `text` is
       * what was read; tool calls still being written were dropped.
       */
      truncated?: string;
    }
  /** `usage`: what the provider reported using before the call failed (charged), when it did. */
  | { ok: false; error: ProviderError; usage?: ModelUsage | null };

export interface ModelCallOptions {
  /** Aborts the call; the adapter then rejects (it does not return a result). */
  signal?: AbortSignal;
  /** Streamed text as it arrives, in order; the concatenation equals the final text. */
  onDelta?: (text: string) => void;
}

/**
 * The model port. Provider failures are returned as `{ ok: false }` so the engine can record them;
 * only an abort (or a bug) rejects.
 */
export interface ModelPort {
  complete(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResult>;
}
