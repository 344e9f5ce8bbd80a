import { costMicros } from '../budget/cost';
import type { CompactionPlan } from '../compaction/plan';
import { deterministicSummary, summaryRequest } from '../compaction/summarize';
import type { NewEvent } from '../events/event-types';
import type { BudgetAmount } from '../ports/budget-port';
import type { ModelRequest, ModelResult } from '../ports/model-port';
import { buildTurnRequest, nextPromptBytes, nextPromptTokens } from '../state/build-request';
import { estimatePromptTokens, estimateTokens, messageTokens } from '../prompt/tokens';
import { summaryMessage } from '../state/context';
import { requireConfig, requireCycle } from '../state/require';
import { DeltaWriter } from './delta-writer';
import { storableText } from '../events/storable-text';
import { capModelResult } from '../model/output-cap';
import { parseToolArgs } from './parse-args';
import type { StepContext } from './step-context';

/**
 * Reserves the worst case before a call. Ids are derived from the log position (`req-<seq of the
 * reservation event>`), so a resumed or replayed run mints exactly the ids the original did.
 */
export async function reserve(ctx: StepContext, purpose: 'model' | 'compaction', amount: BudgetAmount): Promise<void> {
  const config = requireConfig(ctx.state);
  const requestId = `req-${ctx.state.lastSeq + 1}`;
  const outcome = await ctx.ports.budget.reserve(requestId, amount, { signal: ctx.signal });
  if (outcome.granted) {
    await ctx.emit([ctx.event('budget.reserved', { requestId, purpose, ...amount })]);
    return;
  }
  await ctx.emit([ctx.event('budget.exceeded', { requestId, purpose, ...amount, reason: outcome.reason, onExceed: config.onBudgetExceeded })]);
}

/** Calls the model, streaming text into the log; returns its result and the text it streamed. */
async function complete(ctx: StepContext, request: ModelRequest): Promise<{ result: ModelResult; streamed: string }> {
  // One controller that the step's signal also aborts (a listener, removed after the call: cheaper
  // than AbortSignal.any, which this runs for every model call of every loop).
  const controller = new AbortController();
  const parent = ctx.signal;
  const follow = () => controller.abort(parent?.reason);
  if (parent?.aborted) follow();
  else parent?.addEventListener('abort', follow, { once: true });
  const writer = new DeltaWriter(ctx, request.requestId, (reason) => controller.abort(reason));
  let result: ModelResult;
  try {
    result = await ctx.ports.model.complete(request, { signal: controller.signal, onDelta: writer.push });
  } catch (error) {
    writer.rethrowFailure();
    throw error;
  } finally {
    parent?.removeEventListener('abort', follow);
  }
  await writer.finish();
  return { result, streamed: writer.streamed };
}

/** One model turn: `model.requested`, deltas, then `model.responded` + `tool.requested`s (or `model.failed`). */
export async function callModel(ctx: StepContext): Promise<void> {
  const { state } = ctx;
  const config = requireConfig(state);
  const cycle = requireCycle(ctx.state);
  const request = buildTurnRequest(state, cycle.requestId);
  if (!cycle.requested) {
    await ctx.emit([
      ctx.event('model.requested', {
        requestId: cycle.requestId,
        turn: state.turn,
        messages: request.messages.length,
        tools: request.tools.map((t) => t.name),
        promptTokens: nextPromptTokens(state),
        promptBytes: nextPromptBytes(state),
        maxOutputTokens: request.maxOutputTokens,
      }),
    ]);
  }
  const answer = await complete(ctx, request);
  // Held to the output cap whatever the port did (an adapter that cannot stop reading, a script).
  const result = capModelResult(answer.result);
  const { streamed } = answer;
  if (!result.ok) {
    await ctx.emit([failedEvent(ctx, request, result, streamed)]);
    return;
  }
  // Without reported usage, a cut answer is charged for all the port returned, not for what is kept.
  const read = answer.result.ok ? answer.result : result;
  const usage = result.usage
    ? { ...result.usage, estimated: false }
    : {
        inputTokens: estimatePromptTokens(request.messages, request.tools),
        outputTokens: estimateTokens(read.text) + read.toolCalls.reduce((n, c) => n + estimateTokens(c.name + c.arguments), 0),
        estimated: true,
      };
  // What the model said is recorded whatever it holds (events/storable-text.ts), marked when changed.
  const said = storableText(result.text);
  // A cut answer says so in its own text: the run's result and the model's next turn both read it.
  const text = result.truncated ? `${said}\n\n[answer truncated: ${result.truncated}]` : said;
  const responded = ctx.event('model.responded', {
    requestId: cycle.requestId,
    text,
    finishReason: storableText(result.finishReason),
    usage,
    costMicros: costMicros(config.model, usage.inputTokens, usage.outputTokens),
    ...(said !== result.text ? { sanitized: true as const } : {}),
    ...(result.truncated ? { truncated: true as const } : {}),
  });
  const firstCallSeq = state.lastSeq + 2;
  const calls: NewEvent[] = result.toolCalls.map((call, i) => {
    const name = storableText(call.name);
    const parsed = parseToolArgs(call.arguments);
    const sanitized = name !== call.name || parsed.sanitized === true;
    return ctx.event('tool.requested', {
      callId: `call-${firstCallSeq + i}`,
      requestId: cycle.requestId,
      name,
      ...parsed,
      ...(sanitized ? { sanitized: true as const } : {}),
    });
  });
  await ctx.emit([responded, ...calls]);
}

/**
 * `model.failed`, charged with what the call used: the usage the provider reported before it
 * failed, or, when it streamed an answer but reported none, the engine's estimate of the prompt
 * and of the text it streamed. A call refused before any answer (rate limit, auth, connection)
 * reports nothing and is charged nothing.
 */
function failedEvent(ctx: StepContext, request: ModelRequest, result: Extract<ModelResult, { ok: false }>, streamed: string): NewEvent {
  const config = requireConfig(ctx.state);
  const usage = result.usage
    ? { ...result.usage, estimated: false }
    : streamed
      ? { inputTokens: estimatePromptTokens(request.messages, request.tools), outputTokens: estimateTokens(streamed), estimated: true }
      : null;
  const message = storableText(result.error.message);
  return ctx.event('model.failed', {
    requestId: request.requestId,
    error: { ...result.error, message },
    ...(usage ? { usage, costMicros: costMicros(config.model, usage.inputTokens, usage.outputTokens) } : {}),
    ...(message !== result.error.message ? { sanitized: true as const } : {}),
  });
}

/** Charges what the cycle spent and releases the rest (always both events; `released` closes the cycle). */
export async function settle(ctx: StepContext): Promise<void> {
  const cycle = requireCycle(ctx.state);
  const spent = cycle.spent ?? { tokens: 0, costMicros: 0 };
  await ctx.ports.budget.settle(cycle.requestId, cycle.reserved, spent);
  await ctx.emit([
    ctx.event('budget.charged', { requestId: cycle.requestId, ...spent }),
    ctx.event('budget.released', {
      requestId: cycle.requestId,
      tokens: Math.max(0, cycle.reserved.tokens - spent.tokens),
      costMicros: Math.max(0, cycle.reserved.costMicros - spent.costMicros),
    }),
  ]);
}

/**
 * Summarises the planned items into one `compaction.applied` event. The summary text is in the
 * event, so replay rebuilds the compacted context without calling any summariser.
 */
export async function compact(ctx: StepContext, plan: CompactionPlan): Promise<void> {
  const config = requireConfig(ctx.state);
  const settings = config.compaction;
  let summary: string;
  let usage: { inputTokens: number; outputTokens: number; estimated: boolean } | undefined;
  let sanitized = false;
  if (settings.summarizer === 'deterministic') summary = deterministicSummary(plan.items, settings.summaryMaxTokens * 3);
  else {
    const cycle = requireCycle(ctx.state);
    const request = summaryRequest(plan.items, cycle.requestId, ctx.state.turn, settings.summaryMaxTokens);
    const result = capModelResult(await ctx.ports.model.complete(request, { signal: ctx.signal }));
    if (!result.ok) {
      await ctx.emit([failedEvent(ctx, request, result, '')]);
      return;
    }
    summary = storableText(result.text);
    sanitized = summary !== result.text;
    usage = result.usage
      ? { ...result.usage, estimated: false }
      : { inputTokens: estimatePromptTokens(request.messages, []), outputTokens: estimateTokens(summary), estimated: true };
  }
  const removedTokens = plan.items.reduce((sum, item) => sum + item.tokens, 0);
  await ctx.emit([
    ctx.event('compaction.applied', {
      throughItem: plan.throughItem,
      removedItems: plan.items.length,
      summary,
      tokensBefore: plan.tokensBefore,
      tokensAfter: plan.tokensBefore - removedTokens + messageTokens(summaryMessage(summary)),
      ...(usage ? { usage } : {}),
      costMicros: usage ? costMicros(config.model, usage.inputTokens, usage.outputTokens) : 0,
      ...(sanitized ? { sanitized: true as const } : {}),
    }),
  ]);
}
