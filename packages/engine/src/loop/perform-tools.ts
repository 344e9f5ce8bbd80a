import { AppError } from '@looplane/shared';
import type { BreakerTrip } from '../events/breaker-trip';
import type { NewEvent } from '../events/event-types';
import { describeEffect } from '../events/workspace-effect';
import type { ToolResult } from '../ports/tool-port';
import { utf8Length } from '../prompt/tokens';
import type { ToolCallState } from '../state/run-state';
import { requireConfig } from '../state/require';
import type { StepContext } from './step-context';

function callOf(ctx: StepContext, callId: string): ToolCallState {
  const call = ctx.state.calls.find((c) => c.id === callId);
  if (!call) throw new AppError('INTERNAL', `tool call ${callId} is not part of the current turn`);
  return call;
}

/** Cuts text to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  if (utf8Length(text) <= maxBytes) return { text, truncated: false };
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = utf8Length(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return { text: text.slice(0, end), truncated: true };
}

/** A call the engine refuses before policy: unknown or unloaded tool, unusable arguments. */
export async function rejectCall(ctx: StepContext, callId: string, reason: string): Promise<void> {
  await ctx.emit([ctx.event('tool.rejected', { callId, reason })]);
}

/** `load_tools`: engine-internal, no side effect, so no policy check. */
export async function loadTools(ctx: StepContext, callId: string, names: string[]): Promise<void> {
  const catalogue = requireConfig(ctx.state).tools;
  const wanted = [...new Set(names)];
  const loaded = wanted.filter((n) => catalogue.some((t) => t.name === n));
  const unknown = wanted.filter((n) => !catalogue.some((t) => t.name === n));
  await ctx.emit([ctx.event('tools.loaded', { callId, loaded, unknown })]);
}

/** Asks the policy port; `require_approval` also opens the approval (the run then waits for it). */
export async function evaluatePolicy(ctx: StepContext, callId: string): Promise<void> {
  const call = callOf(ctx, callId);
  const verdict = await ctx.ports.policy.evaluate({ callId, name: call.name, args: call.args }, { signal: ctx.signal });
  const decided = ctx.event('policy.decided', {
    callId,
    decision: verdict.decision,
    ...(verdict.decision !== 'allow' && verdict.reason ? { reason: verdict.reason } : {}),
    ...(verdict.decision === 'require_approval' ? { role: verdict.role } : {}),
    ...(verdict.ruleId ? { ruleId: verdict.ruleId } : {}),
    ...(verdict.decision !== 'deny' && verdict.isolation ? { isolation: verdict.isolation } : {}),
  });
  if (verdict.decision === 'allow' && verdict.breaker) return ctx.emit([decided, ...breakerEvents(ctx, call, verdict.breaker)]);
  if (verdict.decision !== 'require_approval') return ctx.emit([decided]);
  const requested = ctx.event('approval.requested', {
    callId,
    kind: 'tool',
    tool: call.name,
    args: call.args,
    role: verdict.role,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
    ...(verdict.risk ? { risk: verdict.risk } : {}),
    ...(verdict.ruleId ? { ruleId: verdict.ruleId } : {}),
  });
  await ctx.emit([decided, requested]);
}

/** A breaker paused the session before an allowed call: the trip, and the approval that resumes it. */
function breakerEvents(ctx: StepContext, call: ToolCallState, trip: BreakerTrip & { reason: string }): NewEvent[] {
  const { name, reason, ...numbers } = trip;
  return [
    ctx.event('breaker.tripped', { callId: call.id, breaker: name, reason, ...numbers }),
    ctx.event('approval.requested', {
      callId: call.id,
      kind: 'breaker',
      tool: call.name,
      args: call.args,
      role: 'approver',
      reason,
      risk: 'medium',
      ruleId: `breaker:${name}`,
      breaker: { name, ...numbers },
    }),
  ];
}

/** `onInterruptedTool: ask`: a human decides whether an interrupted, non-idempotent call runs again. */
export async function askAboutInterrupted(ctx: StepContext, callId: string): Promise<void> {
  const call = callOf(ctx, callId);
  await ctx.emit([
    ctx.event('approval.requested', {
      callId,
      kind: 'interrupted',
      tool: call.name,
      args: call.args,
      role: 'approver',
      reason: `${call.name} started but never reported a result and is not idempotent: approve to run it again`,
      risk: 'high',
    }),
  ]);
}

/**
 * Runs a tool: for a tool that is not idempotent, `tool.started` is durable before the side effect,
 * so a crash leaves evidence that the call may have happened. An idempotent tool may start at once
 * (the worker's port runs it as repeatable, its `tool.started` written alongside), since running
 * it again is safe. A resumed idempotent call re-runs without a second `started`.
 */
export async function runTool(ctx: StepContext, callId: string, resume: boolean): Promise<void> {
  const call = callOf(ctx, callId);
  // Read before tool.started changes the status: a human approved this very call.
  const approved = call.status === 'approved';
  if (!resume) {
    await ctx.emit([ctx.event('tool.started', { callId, name: call.name, args: call.args, attempt: call.attempts + 1 })]);
  }
  const result = await ctx.ports.tools.run(
    { callId, name: call.name, args: call.args, ...(approved ? { approved } : {}), ...(call.isolation ? { isolation: call.isolation } : {}) },
    { signal: ctx.signal },
  );
  // Not run here (an isolation level this worker lacks): the run waits for a worker that offers it.
  if (result.deferred) return ctx.emit([ctx.event('tool.deferred', { callId, ...result.deferred, approved })]);
  const { text, truncated } = truncateUtf8(result.output, requireConfig(ctx.state).limits.maxToolOutputBytes);
  const extra = {
    ...(result.commit !== undefined ? { commit: result.commit } : {}),
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
  };
  const egress = (result.egress ?? []).map((decision) => ctx.event('egress.decided', { callId, ...decision }));
  const memory = (result.memoryWrites ?? []).map((write) => ctx.event('memory.written', write));
  if (result.held)
    return ctx.emit([...egress, ...memory, ...heldEvents(ctx, call, result.held, { ok: result.ok, output: text, truncated, exitCode: result.exitCode })]);
  await ctx.emit([...egress, ...memory, ctx.event('tool.finished', { callId, ok: result.ok, output: text, truncated, ...extra })]);
}

/**
 * A result the effect rules did not let stand. deny: the call finishes failed (the workspace is
 * already back where it was). require_approval: the result waits for an approver, with its diff.
 */
function heldEvents(
  ctx: StepContext,
  call: ToolCallState,
  held: NonNullable<ToolResult['held']>,
  result: { ok: boolean; output: string; truncated: boolean; exitCode: number | undefined },
): NewEvent[] {
  const { verdict, ...kept } = held;
  const decided = ctx.event('effect.decided', {
    callId: call.id,
    decision: verdict.decision,
    reason: verdict.reason,
    ...(verdict.ruleId ? { ruleId: verdict.ruleId } : {}),
    held: kept,
    ok: result.ok,
    output: result.output,
    truncated: result.truncated,
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
  });
  if (verdict.decision === 'deny') {
    const output = `Denied by policy after it ran: ${verdict.reason}. Its changes were rolled back (it ${describeEffect(kept.effect)}): the workspace is as it was before the call.\nThe call's output was:\n${result.output}`;
    return [
      decided,
      ctx.event('tool.finished', {
        callId: call.id,
        ok: false,
        output,
        truncated: result.truncated,
        ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      }),
    ];
  }
  const requested = ctx.event('approval.requested', {
    callId: call.id,
    kind: 'effect',
    tool: call.name,
    args: call.args,
    role: verdict.role ?? 'approver',
    reason: verdict.reason,
    ...(verdict.risk ? { risk: verdict.risk } : {}),
    ...(verdict.ruleId ? { ruleId: verdict.ruleId } : {}),
    held: kept,
  });
  return [decided, requested];
}

/** An approver kept a held result: the workspace goes to it, and the call finishes with its recorded output. */
export async function applyHeld(ctx: StepContext, callId: string): Promise<void> {
  const call = callOf(ctx, callId);
  const held = call.held;
  if (!held) throw new AppError('INTERNAL', `tool call ${callId} has no held result`);
  const runner = ctx.ports.tools;
  if (!runner.applyHeld) throw new AppError('INTERNAL', 'this worker cannot apply held results');
  await runner.applyHeld({ callId, name: call.name, args: call.args, commit: held.commit }, { signal: ctx.signal });
  await ctx.emit([
    ctx.event('tool.finished', {
      callId,
      ok: held.ok,
      output: `An approver kept this call's changes (it ${held.summary}).\n${held.output}`,
      truncated: held.truncated,
      commit: held.commit,
      ...(held.exitCode !== undefined ? { exitCode: held.exitCode } : {}),
    }),
  ]);
}

/** Records that a non-idempotent call was interrupted; the model is told, nothing re-runs. */
export async function interruptTool(ctx: StepContext, callId: string, reason: string): Promise<void> {
  await ctx.emit([ctx.event('tool.interrupted', { callId, reason })]);
}

/** Sends a sub-task to a child; the worker starts the child session when the run waits for it. */
export async function delegate(ctx: StepContext, callId: string, to: string, goal: string): Promise<void> {
  await ctx.emit([ctx.event('delegation.sent', { callId, to, goal })]);
}
