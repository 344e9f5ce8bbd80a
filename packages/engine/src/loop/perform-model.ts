import { costMicros } from '../budget/cost';
import type { CompactionPlan } from '../compaction/plan';
import { deterministicSummary, summaryRequest } from '../compaction/summarize';
import type { NewEvent } from '../events/event-types';
import type { BudgetAmount } from '../ports/budget-port';
import type { ModelRequest, ModelResult } from '../ports/model-port';
import { buildTurnRequest, nextPromptBytes, nextPromptTokens } from '../prompt/build-request';
import { estimatePromptTokens, estimateTokens, messageTokens } from '../prompt/tokens';
import { summaryMessage } from '../state/context';
import { requireConfig, requireCycle } from '../state/require';
import { DeltaWriter } from './delta-writer';
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
  await ctx.emit([
    ctx.event('budget.exceeded', { requestId, purpose, ...amount, reason: outcome.reason, onExceed: config.onBudgetExceeded }),
  ]);
}

/** Calls the model, streaming text into the log, then records the answer and its tool calls. */
async function complete(ctx: StepContext, request: ModelRequest): Promise<ModelResult> {
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
  return result;
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
  const result = await complete(ctx, request);
  if (!result.ok) {
    await ctx.emit([ctx.event('model.failed', { requestId: cycle.requestId, error: result.error })]);
    return;
  }
  const usage = result.usage
    ? { ...result.usage, estimated: false }
    : {
        inputTokens: estimatePromptTokens(request.messages, request.tools),
        outputTokens: estimateTokens(result.text) + result.toolCalls.reduce((n, c) => n + estimateTokens(c.name + c.arguments), 0),
        estimated: true,
      };
  const responded = ctx.event('model.responded', {
    requestId: cycle.requestId,
    text: result.text,
    finishReason: result.finishReason,
    usage,
    costMicros: costMicros(config.model, usage.inputTokens, usage.outputTokens),
  });
  const firstCallSeq = state.lastSeq + 2;
  const calls: NewEvent[] = result.toolCalls.map((call, i) =>
    ctx.event('tool.requested', { callId: `call-${firstCallSeq + i}`, requestId: cycle.requestId, name: call.name, ...parseToolArgs(call.arguments) }),
  );
  await ctx.emit([responded, ...calls]);
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
  if (settings.summarizer === 'deterministic') summary = deterministicSummary(plan.items, settings.summaryMaxTokens * 3);
  else {
    const cycle = requireCycle(ctx.state);
    const request = summaryRequest(plan.items, cycle.requestId, ctx.state.turn, settings.summaryMaxTokens);
    const result = await ctx.ports.model.complete(request, { signal: ctx.signal });
    if (!result.ok) {
      await ctx.emit([ctx.event('model.failed', { requestId: cycle.requestId, error: result.error })]);
      return;
    }
    summary = result.text;
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
    }),
  ]);
}
