import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunConfigInput } from './config/run-config';
import { decodeEvent } from './events/event-codec';
import type { EngineEvent } from './events/event-types';
import { drive } from './loop/drive';
import type { ScriptTurn } from './model/scripted-model';
import type { PolicyDecision } from './ports/policy-port';
import { apply, fold } from './state/fold';
import { runToEnd, startFixture, longScript, longScriptTools, policyFrom, sampleCatalogue, type Fixture } from './testing';

describe('a 200-turn run', () => {
  const config: Partial<RunConfigInput> = { tools: sampleCatalogue(), model: { model: 'scripted', contextWindow: 8000, maxOutputTokens: 1000 } };

  it('replays to an identical state from its events, also after a JSON round trip', async () => {
    const f = await startFixture({ config, script: longScript(200), tools: longScriptTools() });
    const { state, outcome } = await drive({ ports: f.ports });
    expect(outcome).toEqual({ kind: 'done', status: 'succeeded' });
    expect(state.turn).toBe(200);
    expect(state.result).toBe('Finished after 200 turns: all tests pass.');
    expect(state.totals.compactions).toBeGreaterThan(5);
    expect(fold(await f.store.load())).toStrictEqual(state);
    const fromJson = (JSON.parse(JSON.stringify(f.store.events)) as EngineEvent[]).map(decodeEvent);
    expect(fold(fromJson)).toStrictEqual(state);
  });

  it('is deterministic: a second run writes the identical log', async () => {
    const a = await startFixture({ config, script: longScript(200), tools: longScriptTools() });
    const b = await startFixture({ config, script: longScript(200), tools: longScriptTools() });
    await drive({ ports: a.ports });
    await drive({ ports: b.ports });
    expect(b.store.events).toStrictEqual(a.store.events);
  });

  it('stopped every 7 steps and resumed from the store each time, ends with the same log', async () => {
    const whole = await startFixture({ config, script: longScript(200), tools: longScriptTools() });
    await drive({ ports: whole.ports });
    const pieces = await startFixture({ config, script: longScript(200), tools: longScriptTools() });
    let drives = 0;
    for (;;) {
      drives++;
      const { outcome } = await drive({ ports: pieces.ports, maxSteps: 7 });
      if (outcome.kind === 'done') break;
    }
    expect(drives).toBeGreaterThan(100);
    expect(pieces.store.events).toStrictEqual(whole.store.events);
  });
});

// ---- property: random scripts, random crash points ----

const TOOLS = [
  { name: 'alpha', description: 'Idempotent lookup', idempotent: true },
  { name: 'beta', description: 'Mutating action', idempotent: false },
  { name: 'gamma', description: 'Idempotent read', idempotent: true },
  { name: 'delta', description: 'Mutating write', idempotent: false },
];
const names = ['alpha', 'beta', 'gamma', 'delta'] as const;

const callArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ tool: fc.constantFrom(...names), args: fc.record({ n: fc.nat(99) }) }) },
  { weight: 2, arbitrary: fc.record({ tool: fc.constant('load_tools'), args: fc.record({ names: fc.subarray([...names, 'nope']) }) }) },
  { weight: 1, arbitrary: fc.constant({ tool: 'missing_tool', args: {} }) },
  { weight: 1, arbitrary: fc.constant({ tool: 'alpha', rawArgs: '{not json' }) },
);
const turnArb: fc.Arbitrary<ScriptTurn> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ say: fc.string({ maxLength: 40 }), calls: fc.array(callArb, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ delegate: fc.record({ to: fc.constantFrom('worker', 'reviewer'), goal: fc.string({ minLength: 1, maxLength: 20 }) }) }) },
);
const scenarioArb = fc.record({
  turns: fc.array(turnArb, { maxLength: 18 }),
  ending: fc.oneof(
    fc.record({ finish: fc.string({ maxLength: 60 }) }),
    fc.constant<ScriptTurn>({ fail: { code: 'server_error', message: 'upstream exploded', status: 500 } }),
  ),
  policy: fc.array(fc.constantFrom<PolicyDecision['decision']>('allow', 'allow', 'deny', 'require_approval'), { minLength: 4, maxLength: 4 }),
  toolLoading: fc.constantFrom<'on_demand' | 'eager'>('on_demand', 'eager'),
  contextWindow: fc.constantFrom(1500, 100_000),
  summarizer: fc.constantFrom<'deterministic' | 'model'>('deterministic', 'model'),
  onInterruptedTool: fc.constantFrom<'report' | 'ask'>('report', 'ask'),
  deltaChunkChars: fc.constantFrom<number | false>(false, 1, 16, 256),
  cut: fc.nat(),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

async function fixtureFor(s: Scenario, store?: Fixture['store']): Promise<Fixture> {
  return startFixture({
    ...(store ? { store } : {}),
    script: [...s.turns, s.ending],
    config: {
      tools: TOOLS,
      toolLoading: s.toolLoading,
      delegates: [
        { to: 'worker', description: 'does work' },
        { to: 'reviewer', description: 'reviews' },
      ],
      model: { model: 'scripted', contextWindow: s.contextWindow, maxOutputTokens: 200 },
      compaction: { summarizer: s.summarizer, keepRecentTurns: 2, summaryMaxTokens: 150 },
      onInterruptedTool: s.onInterruptedTool,
    },
    tools: Object.fromEntries(
      names.map((n) => [n, (args: Record<string, unknown>) => `${n} saw ${JSON.stringify(args)} ${'~'.repeat(Number(args.n ?? 0) * 6)}`]),
    ),
    policy: policyFrom((call) => {
      const decision = s.policy[names.indexOf(call.name as (typeof names)[number])] ?? 'allow';
      if (decision === 'deny') return { decision, reason: `${call.name} is not allowed` };
      if (decision === 'require_approval') return { decision, role: 'approver', risk: 'medium' };
      return { decision: 'allow' };
    }),
  });
}

/** Humans decide from the call alone, so a resumed run gets the same decisions. */
const decide = (call: { id: string; args: Record<string, unknown> }) => {
  const seq = Number(call.id.slice('call-'.length));
  if (seq % 3 === 0) return { approved: false, by: 'bob', comment: 'not now' };
  if (seq % 3 === 1) return { approved: true, by: 'alice', editedArgs: { ...call.args, edited: true } };
  return { approved: true, by: 'alice' };
};

async function runScenario(s: Scenario, store?: Fixture['store']) {
  const f = await fixtureFor(s, store);
  const { state } = await runToEnd({ ports: f.ports, decide, deltaChunkChars: s.deltaChunkChars });
  return { f, state };
}

describe('replay and resumption (property-based)', () => {
  it('fold(events) equals the live state and fold(prefix) + apply(rest) equals fold(all)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { f, state } = await runScenario(s);
        expect(state.status === 'succeeded' || state.status === 'failed').toBe(true);
        const events = await f.store.load();
        expect(fold(events)).toStrictEqual(state);
        const at = s.cut % (events.length + 1);
        const partial = fold(events.slice(0, at));
        for (const event of events.slice(at)) apply(partial, event);
        expect(partial).toStrictEqual(state);
      }),
      { numRuns: 150 },
    );
  });

  it('replaying the first N events then continuing writes the log an uninterrupted run writes', async () => {
    let interruptedCuts = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { f } = await runScenario(s);
        const full = f.store.events;
        // A durable log can only end at a batch boundary: batches are appended atomically.
        const ends = f.store.batchEnds;
        const n = ends[s.cut % ends.length] ?? 1;
        const prefixState = fold(full.slice(0, n));
        const resumed = await runScenario(s, f.store.prefix(n));
        const inFlight = prefixState.calls.find((c) => c.status === 'started');
        const mutating = inFlight && !TOOLS.find((t) => t.name === inFlight.name)?.idempotent;
        if (!mutating) {
          expect(resumed.f.store.events).toStrictEqual(full);
          return;
        }
        // A non-idempotent call cut mid-flight is never silently re-run.
        interruptedCuts++;
        expect(resumed.f.store.events.slice(0, n)).toStrictEqual(full.slice(0, n));
        const nextEvent = resumed.f.store.events[n];
        if (s.onInterruptedTool === 'report') expect(nextEvent).toMatchObject({ type: 'tool.interrupted', payload: { callId: inFlight.id } });
        else expect(nextEvent).toMatchObject({ type: 'approval.requested', payload: { callId: inFlight.id, kind: 'interrupted' } });
      }),
      // A fixed seed: the last assertion needs a cut inside a mutating call, which a random 200 may not draw.
      { numRuns: 200, seed: 20261207 },
    );
    expect(interruptedCuts).toBeGreaterThan(0);
  });
});
