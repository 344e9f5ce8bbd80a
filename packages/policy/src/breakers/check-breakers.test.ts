import { createEvent, drive, fold, type PolicyPort, type RunState, type ScriptTurn } from '@looplane/engine';
import { payloadsOf, sampleCatalogue, startFixture, type Fixture } from '@looplane/engine/testing';
import { describe, expect, it } from 'vitest';
import { breakersSchema } from '../document/breakers-schema';
import { checkBreakers } from './check-breakers';

const config = (input: unknown) => breakersSchema.parse(input);

/**
 * Drives a scripted session whose policy allows everything but asks the breakers, the way the
 * worker does; every breaker approval is decided by `decide` (approve by default).
 */
async function session(script: ScriptTurn[], breakers: unknown, decide: (n: number) => boolean = () => true) {
  let state: RunState | null = null;
  const policy: PolicyPort = {
    evaluate: async (call) => {
      const s = state!;
      const breaker = checkBreakers(config(breakers), s.breakers, { call, turn: s.turn, nowMs: Date.parse(s.updatedAt!) });
      return breaker ? { decision: 'allow', breaker } : { decision: 'allow' };
    },
  };
  const fx: Fixture = await startFixture({
    script,
    policy,
    config: { tools: sampleCatalogue(), toolLoading: 'eager' },
    tools: { read_file: () => 'text', write_file: (args) => `wrote ${String(args.path)}`, grep: () => 'no match' },
  });
  state = fold(await fx.store.load());
  let trips = 0;
  for (let drives = 0; drives < 50; drives++) {
    const { outcome } = await drive({ ports: fx.ports, state });
    if (outcome.kind !== 'waiting') break;
    const approved = decide(trips++);
    await fx.store.append([createEvent('approval.decided', { callId: outcome.refs[0]!, approved, by: 'tester' }, fx.ports.clock)], state.lastSeq);
    state = fold(await fx.store.load());
  }
  const events = await fx.store.load();
  return { events, state: state!, fx };
}

const same = (n: number): ScriptTurn[] => [
  ...Array.from({ length: n }, () => ({ calls: [{ tool: 'read_file', args: { path: 'a.txt', limit: 5 } }] })),
  { finish: 'done' },
];

describe('breakers on a driven session', () => {
  it('repeatCall: the N-th identical call (canonical arguments) pauses before it runs; after approval N more are needed', async () => {
    // Same call with its keys in another order: equal as canonical JSON.
    const script: ScriptTurn[] = [
      ...Array.from({ length: 6 }, (_, i) => ({ calls: [{ tool: 'read_file', args: i % 2 ? { limit: 5, path: 'a.txt' } : { path: 'a.txt', limit: 5 } }] })),
      { finish: 'done' },
    ];
    const { events, fx } = await session(script, { repeatCall: { times: 3, windowTurns: 10 } });
    const trips = payloadsOf(events, 'breaker.tripped');
    expect(trips.map((t) => [t.breaker, t.observed, t.limit])).toEqual([
      ['repeatCall', 3, 3],
      ['repeatCall', 3, 3],
    ]);
    const approvals = payloadsOf(events, 'approval.requested');
    expect(approvals.every((a) => a.kind === 'breaker' && a.breaker?.name === 'repeatCall' && a.reason?.includes('3 times'))).toBe(true);
    // Tripped on the 3rd call and again on the 6th (the window restarted at the first trip); all six ran once approved.
    const requested = payloadsOf(events, 'tool.requested').map((p) => p.callId);
    expect(trips.map((t) => requested.indexOf(t.callId))).toEqual([2, 5]);
    expect(fx.toolCalls).toHaveLength(6);
    // An approved breaker is not an approval of the call: it ran as the policy allowed it.
    expect(payloadsOf(events, 'tool.started')).toHaveLength(6);
  });

  it('repeatCall: calls outside the window do not count; different arguments are different calls', async () => {
    const spaced: ScriptTurn[] = [];
    for (let i = 0; i < 6; i++)
      spaced.push(
        { calls: [{ tool: 'read_file', args: { path: 'a.txt' } }] },
        { calls: [{ tool: 'grep', args: { pattern: `p${i}` } }] },
        { calls: [{ tool: 'grep', args: { pattern: `q${i}` } }] },
      );
    spaced.push({ finish: 'done' });
    const { events } = await session(spaced, { repeatCall: { times: 3, windowTurns: 5 }, noProgress: { enabled: false } });
    expect(payloadsOf(events, 'breaker.tripped')).toEqual([]);
  });

  it('noProgress: N turns in a row without a workspace change or a new tool; a new tool is progress', async () => {
    const script: ScriptTurn[] = [
      ...Array.from({ length: 5 }, (_, i) => ({ calls: [{ tool: 'read_file', args: { path: `f${i}` } }] })),
      { calls: [{ tool: 'grep', args: { pattern: 'x' } }] },
      ...Array.from({ length: 4 }, (_, i) => ({ calls: [{ tool: 'read_file', args: { path: `g${i}` } }] })),
      { finish: 'done' },
    ];
    const { events } = await session(script, { noProgress: { turns: 3 } });
    const trips = payloadsOf(events, 'breaker.tripped');
    const requested = payloadsOf(events, 'tool.requested').map((p) => p.callId);
    // Turn 1 uses a new tool; turns 2-4 make none: the call of turn 5 trips. grep (turn 6) is new;
    // turns 7-9 idle: the call of turn 10 trips.
    expect(trips.map((t) => [t.breaker, t.observed, requested.indexOf(t.callId)])).toEqual([
      ['noProgress', 3, 4],
      ['noProgress', 3, 9],
    ]);
  });

  it('spendRate: more tokens in a minute than the limit pauses the session; a rejection refuses the call', async () => {
    const { events, state } = await session(
      same(4).map((t, i) => (i < 4 ? { ...t, calls: [{ tool: 'read_file', args: { path: `f${i}` } }] } : t)),
      { spendRate: { perSession: { tokens: 1 } } },
      () => false,
    );
    const trip = payloadsOf(events, 'breaker.tripped')[0]!;
    expect(trip).toMatchObject({ breaker: 'spendRate', scope: 'session', unit: 'tokens per minute', limit: 1 });
    expect(trip.observed).toBeGreaterThan(1);
    expect(payloadsOf(events, 'approval.decided')[0]).toMatchObject({ approved: false });
    expect(state.breakers.pausedCallId).toBeNull();
  });

  it('the same log folds to the same windows (replay) and decides the same', async () => {
    const { events, state } = await session(same(5), { repeatCall: { times: 2, windowTurns: 3 } });
    const again = fold(events);
    expect(again.breakers).toEqual(state.breakers);
    expect(payloadsOf(events, 'breaker.tripped').length).toBeGreaterThan(0);
  });
});

describe('checkBreakers', () => {
  const windows = fold([]).breakers;
  it('fanOut counts the graph run’s delegations in flight, this one included', () => {
    const fanOut = config({ fanOut: { maxInFlight: 2 } });
    const call = { callId: 'c1', name: 'delegate' };
    expect(checkBreakers(fanOut, windows, { call, turn: 1, nowMs: 0, graphRun: { spend: { tokens: 0, costMicros: 0 }, inFlight: 1 } })).toBeNull();
    expect(checkBreakers(fanOut, windows, { call, turn: 1, nowMs: 0, graphRun: { spend: { tokens: 0, costMicros: 0 }, inFlight: 2 } })).toMatchObject({
      name: 'fanOut',
      observed: 3,
      limit: 2,
    });
    expect(
      checkBreakers(config({ fanOut: { enabled: false, maxInFlight: 2 } }), windows, {
        call,
        turn: 1,
        nowMs: 0,
        graphRun: { spend: { tokens: 0, costMicros: 0 }, inFlight: 9 },
      }),
    ).toBeNull();
  });

  it('spendRate per graph run', () => {
    const rate = config({ spendRate: { perGraphRun: { costMicros: 100 } } });
    const call = { callId: 'c1', name: 'read_file' };
    expect(checkBreakers(rate, windows, { call, turn: 1, nowMs: 0, graphRun: { spend: { tokens: 0, costMicros: 101 } } })).toMatchObject({
      name: 'spendRate',
      scope: 'graphRun',
      observed: 101,
      limit: 100,
    });
  });
});
