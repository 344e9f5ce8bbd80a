import { describe, expect, it } from 'vitest';
import { fold } from '../state/fold';
import { callIds, payloadsOf, runToEnd, startFixture, toolRunner, type ToolHandler } from '../testing';
import { drive } from './drive';

const TOOLS = [
  { name: 'deploy', description: 'Deploys the service (not idempotent)', idempotent: false },
  { name: 'status', description: 'Reads service status', idempotent: true },
];

/** A tool whose first invocation dies with the worker (the promise never settles a result). */
function crashingOnce(after: ToolHandler): ToolHandler {
  let calls = 0;
  return (args, call) => {
    if (calls++ === 0) throw new Error('worker lost its sandbox');
    return after(args, call);
  };
}

async function crashedRun(tool: 'deploy' | 'status', onInterruptedTool: 'report' | 'ask' = 'report') {
  const handler = crashingOnce(() => `${tool} ok`);
  const f = await startFixture({
    config: { tools: TOOLS, toolLoading: 'eager', onInterruptedTool },
    script: [{ calls: [{ tool, args: { env: 'prod' } }] }, { finish: 'done' }],
    tools: { [tool]: handler },
  });
  await expect(drive({ ports: f.ports })).rejects.toThrow('worker lost its sandbox');
  // The crash left `tool.started` without `tool.finished`.
  const crashed = fold(await f.store.load());
  expect(crashed.calls[0]?.status).toBe('started');
  return { f, handler };
}

describe('interrupted tools', () => {
  it('never re-runs a non-idempotent call: it is recorded interrupted and reported to the model', async () => {
    const { f } = await crashedRun('deploy');
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(f.toolCalls).toHaveLength(1);
    const [id] = callIds(f.store.events);
    expect(payloadsOf(f.store.events, 'tool.interrupted')).toEqual([{ callId: id, reason: 'the worker stopped while it was running' }]);
    expect(payloadsOf(f.store.events, 'tool.finished')).toEqual([]);
    const told = f.requests[1]!.messages.at(-1);
    expect(told).toMatchObject({ role: 'tool', toolCallId: id });
    expect(told?.content).toMatch(/^Interrupted: deploy started but its result was never recorded .* may or may not have taken effect/);
  });

  it('re-runs an idempotent call once, without a second tool.started', async () => {
    const { f } = await crashedRun('status');
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(f.toolCalls).toHaveLength(2);
    expect(payloadsOf(f.store.events, 'tool.started')).toHaveLength(1);
    expect(payloadsOf(f.store.events, 'tool.finished')).toMatchObject([{ ok: true, output: 'status ok' }]);
  });

  it('holds the call for a human under onInterruptedTool=ask; approval re-runs it as attempt 2', async () => {
    const { f } = await crashedRun('deploy', 'ask');
    const waiting = await drive({ ports: f.ports });
    const [id = ''] = callIds(f.store.events);
    expect(waiting.outcome).toEqual({ kind: 'waiting', reason: 'approval', refs: [id] });
    expect(payloadsOf(f.store.events, 'approval.requested')).toMatchObject([
      { callId: id, kind: 'interrupted', tool: 'deploy', args: { env: 'prod' }, risk: 'high' },
    ]);
    const { state } = await runToEnd({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(payloadsOf(f.store.events, 'tool.started').map((p) => p.attempt)).toEqual([1, 2]);
    expect(f.toolCalls).toHaveLength(2);
  });

  it('a human may refuse the re-run: the model is told it was interrupted', async () => {
    const { f } = await crashedRun('deploy', 'ask');
    await runToEnd({ ports: f.ports, decide: () => ({ approved: false, by: 'ops' }) });
    expect(f.toolCalls).toHaveLength(1);
    expect(f.requests[1]!.messages.at(-1)?.content).toMatch(/^Interrupted: deploy .*a human \(ops\) chose not to re-run it/);
  });

  it('an aborted drive records nothing for the aborted step; the next drive treats the call as interrupted', async () => {
    const controller = new AbortController();
    const tools = toolRunner({
      deploy: () =>
        new Promise((_, reject) => {
          controller.abort();
          reject(new Error('killed by abort'));
        }),
    });
    const f = await startFixture({ config: { tools: TOOLS, toolLoading: 'eager' }, script: [{ calls: [{ tool: 'deploy', args: {} }] }, { finish: 'done' }] });
    const aborted = await drive({ ports: { ...f.ports, tools }, signal: controller.signal });
    expect(aborted.outcome).toEqual({ kind: 'aborted' });
    expect(f.store.events.at(-1)?.type).toBe('tool.started');
    await drive({ ports: f.ports });
    expect(payloadsOf(f.store.events, 'tool.interrupted')).toHaveLength(1);
  });
});
