import { describeEffect } from '../events/workspace-effect';
import { refreshToolDefs } from './apply-run';
import { attachToolCall, pushToolResult } from './context';
import type { HandlerGroup } from './handlers';
import type { RunState, ToolCallState } from './run-state';

type ToolEvents =
  | 'tool.requested'
  | 'tool.rejected'
  | 'tools.loaded'
  | 'policy.decided'
  | 'approval.requested'
  | 'approval.decided'
  | 'tool.started'
  | 'tool.finished'
  | 'tool.interrupted'
  | 'tool.deferred'
  | 'effect.decided'
  | 'egress.decided'
  | 'delegation.sent'
  | 'delegation.returned';

function callOf(state: RunState, callId: string): ToolCallState | undefined {
  return state.calls.find((c) => c.id === callId);
}

/** What the model is told about a call that started and never reported back. */
function interruptedText(call: ToolCallState, why: string): string {
  return (
    `Interrupted: ${call.name} started but its result was never recorded (${why}). It was not run again ` +
    'because it is not idempotent, so it may or may not have taken effect: check before retrying.'
  );
}

export const toolHandlers: HandlerGroup<ToolEvents> = {
  'tool.requested': (state, p) => {
    state.calls.push({
      id: p.callId,
      name: p.name,
      args: p.args,
      argsError: p.argsError ?? null,
      status: 'requested',
      attempts: 0,
      interruptionAsked: false,
      editedByApprover: false,
      held: null,
    });
    attachToolCall(state, { id: p.callId, name: p.name, arguments: p.rawArgs ?? JSON.stringify(p.args) });
    state.openCalls++;
    state.finalText = null;
    state.finalTextSeq = null;
  },
  'tool.rejected': (state, p) => {
    const call = callOf(state, p.callId);
    if (call) call.status = 'rejected';
    pushToolResult(state, p.callId, `Error: ${p.reason}`);
  },
  'tools.loaded': (state, p) => {
    for (const name of p.loaded) if (!state.loadedTools.includes(name)) state.loadedTools.push(name);
    refreshToolDefs(state);
    const call = callOf(state, p.callId);
    if (call) call.status = 'loaded';
    const loaded = p.loaded.length ? `Loaded: ${p.loaded.join(', ')}. You can call them now.` : 'Nothing was loaded.';
    const unknown = p.unknown.length ? ` Unknown tools: ${p.unknown.join(', ')}.` : '';
    pushToolResult(state, p.callId, loaded + unknown);
  },
  'policy.decided': (state, p) => {
    const call = callOf(state, p.callId);
    if (!call) return;
    if (p.isolation) call.isolation = { level: p.isolation, ruleId: p.ruleId ?? null };
    if (p.decision === 'allow') call.status = 'allowed';
    else if (p.decision === 'require_approval') call.status = 'awaiting_approval';
    else {
      call.status = 'denied';
      pushToolResult(state, p.callId, `Denied by policy: ${p.reason ?? 'no reason given'}`);
    }
  },
  'approval.requested': (state, p) => {
    state.waiting = { reason: 'approval', callId: p.callId };
    const call = callOf(state, p.callId);
    if (!call) return;
    call.status = 'awaiting_approval';
    if (p.kind === 'interrupted') call.interruptionAsked = true;
  },
  'approval.decided': (state, p) => {
    if (state.waiting?.reason === 'approval' && state.waiting.callId === p.callId) state.waiting = null;
    const call = callOf(state, p.callId);
    if (call?.status !== 'awaiting_approval') return;
    const who = p.by ? ` (${p.by})` : '';
    if (p.approved) {
      call.status = 'approved';
      // A held result is applied as it was recorded: arguments of a call that already ran cannot change.
      if (p.editedArgs && !call.held) {
        call.args = p.editedArgs;
        call.editedByApprover = true;
      }
    } else if (call.held) {
      const { held } = call;
      call.held = null;
      call.status = 'refused';
      pushToolResult(
        state,
        p.callId,
        `Rejected by an approver${who}: ${p.comment ?? 'no reason given'}. The call ran, but its changes were rolled back (it ${held.summary}): ` +
          `the workspace is as it was before the call.\nThe call's output was:\n${held.output}`,
      );
    } else if (call.interruptionAsked) {
      call.status = 'interrupted';
      pushToolResult(state, p.callId, interruptedText(call, `a human${who} chose not to re-run it`));
    } else {
      call.status = 'refused';
      pushToolResult(state, p.callId, `Rejected by an approver${who}: ${p.comment ?? 'no reason given'}`);
    }
  },
  'tool.started': (state, p) => {
    const call = callOf(state, p.callId);
    if (call) {
      call.status = 'started';
      call.attempts = p.attempt;
    }
    state.totals.toolRuns++;
  },
  'tool.deferred': (state, p) => {
    const call = callOf(state, p.callId);
    // Nothing ran: the call is as it was before it started, and runs from the start where the level is offered.
    if (call) call.status = p.approved ? 'approved' : 'allowed';
    state.totals.toolRuns = Math.max(0, state.totals.toolRuns - 1);
    state.waiting = { reason: 'isolation', callId: p.callId, level: p.level };
  },
  'tool.finished': (state, p) => {
    if (p.replayed && state.replay) delete state.replay.serving[p.callId];
    const call = callOf(state, p.callId);
    if (call) {
      call.status = 'finished';
      call.held = null;
    }
    const note = call?.editedByApprover ? `Note: an approver changed the arguments to ${JSON.stringify(call.args)}.\n` : '';
    const body = p.ok ? p.output : `Error: ${p.output}`;
    pushToolResult(state, p.callId, `${note}${body}${p.truncated ? '\n[output truncated]' : ''}`);
  },
  'effect.decided': (state, p) => {
    const call = callOf(state, p.callId);
    // deny: the call's tool.finished follows in the same batch; nothing waits.
    if (!call || p.decision !== 'require_approval') return;
    call.held = {
      commit: p.held.commit,
      ok: p.ok,
      output: p.output,
      truncated: p.truncated,
      ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}),
      summary: describeEffect(p.held.effect),
    };
  },
  'tool.interrupted': (state, p) => {
    const call = callOf(state, p.callId);
    if (!call) return;
    call.status = 'interrupted';
    pushToolResult(state, p.callId, interruptedText(call, p.reason));
  },
  // A record for people (the timeline, audits); the call's result is what the model sees.
  'egress.decided': () => undefined,
  'delegation.sent': (state, p) => {
    const call = callOf(state, p.callId);
    if (call) call.status = 'delegated';
  },
  'delegation.returned': (state, p) => {
    const call = callOf(state, p.callId);
    // A replay serves a recorded delegation's result without sending it (no child runs).
    if (p.replayed && state.replay) delete state.replay.serving[p.callId];
    if (call?.status !== 'delegated' && !(p.replayed && call?.status === 'requested')) return;
    call.status = 'returned';
    pushToolResult(state, p.callId, p.ok ? p.result : `Delegation failed: ${p.result}`);
  },
};
