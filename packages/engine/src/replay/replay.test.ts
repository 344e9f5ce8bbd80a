import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../config/run-config';
import { createEvent } from '../events/create-event';
import { decodeEvent, eventVersion } from '../events/event-codec';
import type { EngineEvent } from '../events/event-types';
import { createScriptedModel, type ScriptTurn } from '../model/scripted-model';
import { fold } from '../state/fold';
import { InMemoryEventStore } from '../testing/in-memory-store';
import { allowAllPolicy, fixedClock, toolRunner, unlimitedBudget } from '../testing/ports';
import { runToEnd } from '../testing/harness';
import { compareTurn } from './compare-turn';
import { recordingFrom, recordingOf } from './recording';
import type { ReplayMode } from '../events/replay-schemas';

const clock = fixedClock();
const config = parseRunConfig({
  model: { model: 'scripted', contextWindow: 100_000, maxOutputTokens: 200 },
  tools: [{ name: 'append', description: 'Append a line.' }],
  toolLoading: 'eager',
  limits: { maxTurns: 50 },
});
const turns = (n: number, line: (i: number) => string): ScriptTurn[] => [
  ...Array.from({ length: n }, (_, i) => ({ say: `turn ${i + 1}`, calls: [{ tool: 'append', args: { line: line(i), n: i + 1 } }] })),
  { finish: 'done' },
];

async function record(script: ScriptTurn[]) {
  const store = new InMemoryEventStore([{ ...createEvent('run.started', { goal: 'Write lines.', config }, clock), seq: 1 } as EngineEvent]);
  const tools = toolRunner({ append: (args) => `appended ${String(args.line)}` });
  await runToEnd({ ports: { store, model: createScriptedModel(script), tools, policy: allowAllPolicy, budget: unlimitedBudget(), clock } });
  return { events: store.events, tools };
}

async function replay(events: EngineEvent[], atEvent: number, script: ScriptTurn[], mode: ReplayMode) {
  const inherited = events.filter((e) => e.seq <= atEvent);
  const forked = {
    ...createEvent('session.forked', { parentSessionId: 'src', atSeq: atEvent, replay: { sourceSessionId: 'src', atEvent, mode } }, clock),
    seq: atEvent + 1,
  } as EngineEvent;
  const store = new InMemoryEventStore([...inherited, forked]);
  const tools = toolRunner({ append: (args) => `live ${String(args.line)}` });
  const ports = {
    store,
    model: createScriptedModel(script),
    tools,
    policy: allowAllPolicy,
    budget: unlimitedBudget(),
    clock,
    replay: recordingFrom(recordingOf(events, atEvent)),
  };
  const { state } = await runToEnd({ ports });
  return { state, own: store.events.filter((e) => e.seq > atEvent + 1), tools };
}

describe('replay', () => {
  it('serves the recorded results while the new model agrees, then stops at the first divergence with the report', async () => {
    const recorded = await record(turns(30, (i) => `line ${i + 1}`));
    expect(recorded.tools.calls).toHaveLength(30);
    const script = turns(30, (i) => (i < 12 ? `line ${i + 1}` : `other ${i + 1}`));
    const { state, own, tools } = await replay(recorded.events, 1, script, 'stop');
    expect(tools.calls).toHaveLength(0);
    const served = own.filter((e) => e.type === 'tool.finished');
    expect(served).toHaveLength(12);
    expect(served.every((e) => e.type === 'tool.finished' && e.payload.replayed === true)).toBe(true);
    expect(own.filter((e) => e.type === 'tool.started' || e.type === 'policy.decided')).toHaveLength(0);
    const diverged = own.find((e) => e.type === 'replay.diverged');
    expect(diverged?.payload).toMatchObject({ turn: 13, replayTurn: 13, reason: 'different_call', callIndex: 0, mode: 'stop' });
    const report = diverged!.type === 'replay.diverged' ? diverged!.payload : null;
    expect(report!.recorded!.calls[0]).toMatchObject({ name: 'append', args: { line: 'line 13', n: 13 } });
    expect(report!.replayed.calls[0]).toMatchObject({ name: 'append', args: { line: 'other 13', n: 13 } });
    expect(recorded.events.find((e) => e.seq === report!.recorded!.seq)?.type).toBe('model.responded');
    expect(own.find((e) => e.seq === report!.replayed.seq)?.type).toBe('model.responded');
    expect(state).toMatchObject({ status: 'succeeded', turn: 13 });
    expect(state.result).toContain('turn 13');
  });

  it('live mode runs the divergent turn and the rest for real', async () => {
    const recorded = await record(turns(30, (i) => `line ${i + 1}`));
    const script = turns(30, (i) => (i < 12 ? `line ${i + 1}` : `other ${i + 1}`));
    const { state, own, tools } = await replay(recorded.events, 1, script, 'live');
    expect(tools.calls.map((c) => c.args.line)).toEqual(Array.from({ length: 18 }, (_, i) => `other ${i + 13}`));
    expect(own.filter((e) => e.type === 'tool.finished' && e.payload.replayed)).toHaveLength(12);
    expect(own.filter((e) => e.type === 'replay.matched')).toHaveLength(12);
    expect(state).toMatchObject({ status: 'succeeded', result: 'done', turn: 31 });
  });

  it('an agreeing replay serves every call and finishes like the recording', async () => {
    const script = turns(5, (i) => `line ${i}`);
    const recorded = await record(script);
    const { state, tools } = await replay(recorded.events, 1, script, 'stop');
    expect(tools.calls).toHaveLength(0);
    // The same conversation (call ids are minted from each log's own positions).
    const text = (s: ReturnType<typeof fold>) => s.context.map((c) => [c.message.role, c.message.content]);
    expect(text(state)).toEqual(text(fold(recorded.events)));
    expect(state).toMatchObject({ status: 'succeeded', result: 'done' });
  });

  it('compares arguments after canonical JSON and counts calls', () => {
    const recorded = {
      requestId: 'r',
      seq: 5,
      calls: [
        {
          callId: 'c',
          seq: 6,
          name: 'a',
          args: { x: 1, y: { b: 2, a: 1 } },
          argsError: null,
          outcome: { kind: 'finished' as const, seq: 9, ok: true, output: '', truncated: false },
        },
      ],
    };
    expect(compareTurn(recorded, [{ name: 'a', args: { y: { a: 1, b: 2 }, x: 1 }, argsError: null }])).toEqual({ same: true });
    expect(compareTurn(recorded, [])).toMatchObject({ same: false, reason: 'call_count', callIndex: 0 });
    expect(compareTurn(null, [])).toMatchObject({ same: false, reason: 'no_recorded_turn' });
    expect(
      compareTurn({ ...recorded, calls: [{ ...recorded.calls[0]!, outcome: { kind: 'unservable', status: 'denied by policy' } }] }, [
        { name: 'a', args: recorded.calls[0]!.args, argsError: null },
      ]),
    ).toMatchObject({ reason: 'unservable' });
  });

  it('v1 results and forks still decode; the replay marks are v2', () => {
    expect(eventVersion('tool.finished')).toBe(2);
    const v1 = decodeEvent({
      seq: 3,
      type: 'tool.finished',
      v: 1,
      at: '2026-01-01T00:00:00.000Z',
      payload: { callId: 'c', ok: true, output: 'x', truncated: false },
    });
    expect(v1).toMatchObject({ v: 2, payload: { callId: 'c', output: 'x' } });
    expect('replayed' in v1.payload).toBe(false);
    expect(decodeEvent({ seq: 4, type: 'session.forked', v: 1, at: '2026-01-01T00:00:00.000Z', payload: { parentSessionId: 'p', atSeq: 3 } })).toMatchObject({
      v: 2,
    });
    expect(() => decodeEvent({ seq: 4, type: 'tool.finished', v: 3, at: '2026-01-01T00:00:00.000Z', payload: {} })).toThrow(/reads 1..2/);
  });
});
