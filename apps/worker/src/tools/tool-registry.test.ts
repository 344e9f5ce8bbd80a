import { describe, expect, it } from 'vitest';
import { registerBuiltinTools } from './builtin-tools';
import { ToolRegistry } from './tool-registry';

const context = { runId: 'r', sessionId: 's', teamId: 't', agentId: null };

describe('ToolRegistry', () => {
  it('runs a registered tool with the session context and the abort signal', async () => {
    const registry = new ToolRegistry().register('echo', async (args, call, ctx) => ({
      ok: true,
      output: `${call.callId}:${args.text}:${ctx.sessionId}:${ctx.signal?.aborted}`,
    }));
    const result = await registry.runnerFor(context).run({ callId: 'call-1', name: 'echo', args: { text: 'hi' } }, { signal: new AbortController().signal });
    expect(result).toEqual({ ok: true, output: 'call-1:hi:s:false' });
  });

  it('reports an unknown tool as a failed call the model sees', async () => {
    const result = await new ToolRegistry().runnerFor(context).run({ callId: 'call-1', name: 'nope', args: {} });
    expect(result).toEqual({ ok: false, output: 'no tool named nope is installed on this worker' });
  });

  it('refuses to start a call whose signal is already aborted, and a name registered twice', async () => {
    const registry = new ToolRegistry().register('x', async () => ({ ok: true, output: '' }));
    const aborted = AbortSignal.abort(new Error('cancelled'));
    await expect(registry.runnerFor(context).run({ callId: 'c', name: 'x', args: {} }, { signal: aborted })).rejects.toThrow('cancelled');
    expect(() => registry.register('x', async () => ({ ok: true, output: '' }))).toThrow('tool x is registered twice');
  });

  it('registers no built-in tools without a sandbox (the worker always passes one)', () => {
    expect(registerBuiltinTools(new ToolRegistry()).names()).toEqual([]);
  });

  it('keeps what a tool says about its idempotency, and runs session-end hooks even when one fails', async () => {
    const registry = new ToolRegistry()
      .register('read', async () => ({ ok: true, output: '' }), { idempotent: true })
      .register('write', async () => ({ ok: true, output: '' }), { idempotent: false })
      .register('plain', async () => ({ ok: true, output: '' }));
    expect([registry.idempotent('read'), registry.idempotent('write'), registry.idempotent('plain'), registry.idempotent('nope')]).toEqual([
      true,
      false,
      undefined,
      undefined,
    ]);
    const ended: string[] = [];
    registry.onSessionEnd(() => {
      throw new Error('boom');
    });
    registry.onSessionEnd(({ sessionId }) => {
      ended.push(sessionId);
    });
    await registry.sessionEnded({ sessionId: 's-1', graphRun: false });
    expect(ended).toEqual(['s-1']);
  });
});
