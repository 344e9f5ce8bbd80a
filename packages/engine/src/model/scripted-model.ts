import { z } from 'zod';
import { DELEGATE } from '../config/tool-spec';
import type { ModelPort, ModelRequest, ModelResult, ModelToolCall } from '../ports/model-port';
import { estimateTokens, messageTokens, toolDefinitionTokens } from '../prompt/tokens';

/**
 * One scripted model turn: say text, call tools, delegate, finish, or fail like a provider would.
 * A turn with no calls and no delegation is the final answer.
 */
export const scriptTurnSchema = z.object({
  say: z.string().optional(),
  calls: z
    .array(
      z.object({
        tool: z.string().min(1),
        args: z.record(z.string(), z.json()).default({}),
        /** Sent verbatim instead of `args`, to script malformed arguments. */
        rawArgs: z.string().optional(),
      }),
    )
    .default([]),
  delegate: z.object({ to: z.string(), goal: z.string() }).optional(),
  finish: z.string().optional(),
  fail: z
    .object({
      code: z.enum(['rate_limited', 'server_error', 'bad_request', 'auth', 'not_found', 'timeout', 'connection', 'invalid_response']),
      message: z.string(),
      status: z.int().optional(),
    })
    .optional(),
});
export type ScriptTurn = z.input<typeof scriptTurnSchema>;

export interface ScriptedModelOptions {
  /** Characters per streamed delta (default 8). */
  chunkChars?: number;
  /** The answer once the script has run out (default "Done."). Like a turn's text, it may quote `{{lastUserMessage}}`. */
  finalText?: string;
}

function toolCallsOf(turn: z.output<typeof scriptTurnSchema>): ModelToolCall[] {
  const calls = turn.calls.map((c) => ({ name: c.tool, arguments: c.rawArgs ?? JSON.stringify(c.args) }));
  if (turn.delegate) calls.push({ name: DELEGATE, arguments: JSON.stringify(turn.delegate) });
  return calls;
}

/** What a turn's text writes for the latest user message (the goal, or a message sent to the run). */
const LAST_USER_MESSAGE = '{{lastUserMessage}}';

/** The text with each {@link LAST_USER_MESSAGE} replaced by the request's latest user message: a script can answer what it was told. */
function withLastUserMessage(text: string, request: ModelRequest): string {
  if (!text.includes(LAST_USER_MESSAGE)) return text;
  const last = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
  return text.replaceAll(LAST_USER_MESSAGE, last);
}

/** A deterministic summary of the transcript a summary request carries. */
function scriptedSummary(request: ModelRequest): string {
  const transcript = request.messages[request.messages.length - 1]?.content ?? '';
  const lines = transcript.split('\n');
  return `Scripted summary of ${lines.length} lines; last: ${lines[lines.length - 1]?.slice(0, 160) ?? ''}`;
}

/**
 * A model port that replays a script: the reply depends only on `request.turn` (and the transcript,
 * for summaries), never on time or randomness, and usage is the engine's own estimate. The faux
 * endpoint and every offline test are built on it.
 */
export function createScriptedModel(script: readonly ScriptTurn[], options: ScriptedModelOptions = {}): ModelPort {
  const turns = script.map((turn) => scriptTurnSchema.parse(turn));
  // Consecutive requests share most message objects: count each once, like a real model's prompt cache.
  const counted = new WeakMap<object, number>();
  const tokensOf = <T extends object>(value: T, count: (v: T) => number) => {
    let tokens = counted.get(value);
    if (tokens === undefined) {
      tokens = count(value);
      counted.set(value, tokens);
    }
    return tokens;
  };
  const chunk = Math.max(1, options.chunkChars ?? 8);
  return {
    async complete(request, callOptions = {}): Promise<ModelResult> {
      callOptions.signal?.throwIfAborted();
      const turn = turns[request.turn] ?? scriptTurnSchema.parse({ finish: options.finalText ?? 'Done.' });
      if (request.purpose === 'turn' && turn.fail) {
        return { ok: false, error: { ...turn.fail, retryable: turn.fail.code === 'rate_limited' || turn.fail.code === 'server_error' } };
      }
      const text = request.purpose === 'summary' ? scriptedSummary(request) : withLastUserMessage(turn.say ?? turn.finish ?? '', request);
      const toolCalls = request.purpose === 'summary' ? [] : toolCallsOf(turn);
      for (let i = 0; i < text.length; i += chunk) callOptions.onDelta?.(text.slice(i, i + chunk));
      const outputTokens = estimateTokens(text) + toolCalls.reduce((n, c) => n + estimateTokens(c.name + c.arguments), 0);
      return {
        ok: true,
        text,
        toolCalls,
        usage: {
          inputTokens:
            request.messages.reduce((n, m) => n + tokensOf(m, messageTokens), 0) + request.tools.reduce((n, t) => n + tokensOf(t, toolDefinitionTokens), 0),
          outputTokens,
        },
        finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      };
    },
  };
}
