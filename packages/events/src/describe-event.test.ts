import { EVENT_TYPES, eventVersion, type EventType } from '@looplane/engine/events';
import { describe, expect, it } from 'vitest';
import { decodeWireEvent } from './client-event';
import { describeEvent, headline, type EventDescription } from './describe-event';
import { parseWireEvent } from './wire-event';

const SHA = 'a'.repeat(40);
const BASE = 'b'.repeat(40);
const effect = {
  changes: [{ path: 'build/out.js', kind: 'deleted', oldBytes: 10, newBytes: null }],
  counts: { added: 0, modified: 0, truncated: 0, deleted: 1, moved: 0 },
};
const trip = { scope: 'session', observed: 8, limit: 8, unit: 'identical calls', window: 'within 12 turns' };
const call = { name: 'write_file', args: { path: 'a.txt' }, seq: 9 };

type Expected = Pick<EventDescription, 'label' | 'summary'> & Partial<EventDescription>;
/** One stored payload of a version and what people see of it. */
interface Case {
  v: number;
  payload: Record<string, unknown>;
  expected: Expected;
}

/**
 * Every event type the engine writes, at every version it ever wrote: the test below fails when a
 * type or a version (an upcaster) is added to the engine without a case here.
 */
const CASES: Record<EventType, Case[]> = {
  'run.started': [
    {
      v: 1,
      payload: { goal: 'Fix the\ntests', config: { model: { model: 'm' } }, command: { name: 'triage', args: {} } },
      expected: { label: 'Run started', summary: '/triage · Fix the tests' },
    },
  ],
  'run.resumed': [
    { v: 1, payload: { reason: 'budget', note: 'raised to $2' }, expected: { label: 'Run resumed', summary: 'after a budget raise: raised to $2' } },
  ],
  'run.finished': [
    { v: 1, payload: { status: 'failed', error: 'out of budget' }, expected: { label: 'Run finished', summary: 'failed: out of budget', tone: 'danger' } },
    {
      v: 2,
      payload: { status: 'succeeded', resultSeq: 12 },
      expected: { label: 'Run finished', summary: 'succeeded: the answer at #12', tone: 'success' },
    },
  ],
  'session.forked': [
    { v: 1, payload: { parentSessionId: 'sp', atSeq: 4 }, expected: { label: 'Branch forked', summary: 'from session sp at #4' } },
    {
      v: 2,
      payload: { parentSessionId: 'sp', atSeq: 4, replay: { sourceSessionId: 'src', atEvent: 3, mode: 'stop' } },
      expected: { label: 'Replay started', summary: 'of session src after #3 (stops at the first divergence)' },
    },
  ],
  'message.added': [{ v: 1, payload: { role: 'notice', text: 'Held by policy' }, expected: { label: 'Notice', summary: 'Held by policy' } }],
  'model.requested': [
    {
      v: 1,
      payload: { requestId: 'r1', turn: 0, messages: 3, tools: ['read_file', 'run_shell'], promptTokens: 120, promptBytes: 480, maxOutputTokens: 1024 },
      expected: { label: 'Model called', summary: 'turn 1: 3 messages, 2 tools, ~120 prompt tokens', quiet: true },
    },
  ],
  'model.delta': [{ v: 1, payload: { requestId: 'r1', index: 0, text: 'Let me ' }, expected: { label: 'Model streaming', summary: 'Let me', quiet: true } }],
  'model.responded': [
    {
      v: 1,
      payload: { requestId: 'r1', text: 'Looking.', finishReason: 'stop', usage: { inputTokens: 100, outputTokens: 20, estimated: false }, costMicros: 18 },
      expected: { label: 'Model answered', summary: 'Looking.  [100 in / 20 out, $0.000018]', quiet: false },
    },
  ],
  'model.failed': [
    {
      v: 1,
      payload: { requestId: 'r1', error: { code: 'rate_limited', message: '429 slow down', retryable: true } },
      expected: { label: 'Model failed', summary: '429 slow down (retryable)', tone: 'danger' },
    },
  ],
  'tool.requested': [
    {
      v: 1,
      payload: { callId: 'c1', requestId: 'r1', name: 'run_shell', args: { command: 'npm test' } },
      expected: { label: 'Tool call', summary: 'run_shell {"command":"npm test"}' },
    },
  ],
  'tool.rejected': [
    { v: 1, payload: { callId: 'c1', reason: 'unknown tool nope' }, expected: { label: 'Tool rejected', summary: 'unknown tool nope', tone: 'danger' } },
  ],
  'skill.loaded': [
    {
      v: 1,
      payload: { callId: 'c1', name: 'quotes', source: 'team', version: 3, description: 'Draft quotes.', instructions: 'Use EUR.', files: ['quotes/rules.md'] },
      expected: { label: 'Skill loaded', summary: 'quotes v3 (team library) · files: quotes/rules.md' },
    },
  ],
  'tools.loaded': [
    { v: 1, payload: { callId: 'c1', loaded: ['git_diff'], unknown: ['nope'] }, expected: { label: 'Tools loaded', summary: 'git_diff; unknown: nope' } },
  ],
  'policy.decided': [
    {
      v: 1,
      payload: { callId: 'c1', decision: 'deny', reason: 'no pushes', ruleId: 'r7' },
      expected: { label: 'Policy decided', summary: 'deny: no pushes · rule r7', tone: 'danger', quiet: false },
    },
  ],
  'approval.requested': [
    {
      v: 1,
      payload: { callId: 'c1', kind: 'tool', tool: 'shell', args: {}, role: 'approver', reason: 'destructive' },
      expected: { label: 'Approval needed', summary: 'shell needs a decision by an approver: destructive', tone: 'warning' },
    },
  ],
  'approval.decided': [
    {
      v: 1,
      payload: { callId: 'c1', approved: false, by: 'ada@example.com', comment: 'not today' },
      expected: { label: 'Approval decided', summary: 'rejected by ada@example.com: not today', tone: 'danger' },
    },
  ],
  'tool.started': [
    {
      v: 1,
      payload: { callId: 'c1', name: 'run_shell', args: {}, attempt: 2 },
      expected: { label: 'Tool started', summary: 'run_shell (attempt 2)', quiet: true },
    },
  ],
  'tool.finished': [
    {
      v: 1,
      payload: { callId: 'c1', ok: false, output: '1 failing\nat x', truncated: false, exitCode: 1 },
      expected: { label: 'Tool finished', summary: 'failed (exit 1): 1 failing at x', tone: 'danger' },
    },
    {
      v: 2,
      payload: { callId: 'c1', ok: true, output: 'done', truncated: false, commit: SHA, replayed: true, recordedSeq: 12 },
      expected: { label: 'Tool finished', summary: 'ok (replayed from the log) · commit aaaaaaa: done', tone: 'success' },
    },
  ],
  'tool.interrupted': [
    { v: 1, payload: { callId: 'c1', reason: 'the worker stopped' }, expected: { label: 'Tool interrupted', summary: 'the worker stopped', tone: 'warning' } },
  ],
  'tool.deferred': [
    {
      v: 1,
      payload: { callId: 'c1', level: 'gvisor', reason: 'the agent requires the gvisor sandbox or stronger, but this worker runs bwrap', approved: false },
      expected: {
        label: 'Tool deferred',
        summary: 'waits for a worker offering gvisor: the agent requires the gvisor sandbox or stronger, but this worker runs bwrap',
        tone: 'warning',
      },
    },
  ],
  'effect.decided': [
    {
      v: 1,
      payload: {
        callId: 'c1',
        decision: 'require_approval',
        reason: 'deletes files',
        held: { commit: SHA, baseCommit: BASE, effect },
        ok: true,
        output: '',
        truncated: false,
      },
      expected: { label: 'Effect held', summary: 'rolled back (deleted 1 file (build/out.js)): deletes files', tone: 'warning' },
    },
  ],
  'egress.decided': [
    {
      v: 1,
      payload: { callId: 'c1', kind: 'connect', method: 'CONNECT', host: 'evil.example', port: 443, allowed: false, reason: 'host not allowed' },
      expected: { label: 'Egress refused', summary: 'CONNECT evil.example:443: host not allowed', tone: 'warning' },
    },
  ],
  'breaker.tripped': [
    {
      v: 1,
      payload: { callId: 'c1', breaker: 'repeatCall', ...trip, reason: 'the same call again' },
      expected: { label: 'Breaker tripped', summary: 'repeatCall: 8 identical calls (limit 8) within 12 turns: the same call again', tone: 'warning' },
    },
  ],
  'budget.reserved': [
    {
      v: 1,
      payload: { requestId: 'r1', purpose: 'model', tokens: 2000, costMicros: 1500 },
      expected: { label: 'Budget reserved', summary: '2000 tokens, $0.0015 for the model call', quiet: true },
    },
  ],
  'budget.charged': [
    { v: 1, payload: { requestId: 'r1', tokens: 120, costMicros: 18 }, expected: { label: 'Budget charged', summary: '120 tokens, $0.000018', quiet: true } },
  ],
  'budget.released': [
    {
      v: 1,
      payload: { requestId: 'r1', tokens: 1880, costMicros: 1482 },
      expected: { label: 'Budget released', summary: '1880 tokens, $0.001482', quiet: true },
    },
  ],
  'budget.exceeded': [
    {
      v: 1,
      payload: { requestId: 'r1', purpose: 'model', tokens: 1, costMicros: 1, reason: 'cost limit', onExceed: 'wait' },
      expected: { label: 'Budget exceeded', summary: 'cost limit — the run waits for a raise', tone: 'warning' },
    },
  ],
  'compaction.applied': [
    {
      v: 1,
      payload: { throughItem: 6, removedItems: 6, summary: 'so far', tokensBefore: 9000, tokensAfter: 1200, costMicros: 0 },
      expected: { label: 'Context compacted', summary: '9000 → 1200 tokens (6 items summarised)' },
    },
  ],
  'delegation.sent': [
    { v: 1, payload: { callId: 'c1', to: 'coder', goal: 'Implement it' }, expected: { label: 'Delegated', summary: 'to coder: Implement it' } },
  ],
  'delegation.returned': [
    { v: 1, payload: { callId: 'c1', ok: true, result: 'Done.' }, expected: { label: 'Delegation returned', summary: 'ok: Done.', tone: 'success' } },
    {
      v: 2,
      payload: { callId: 'c1', ok: false, result: 'Broke.', replayed: true, recordedSeq: 5 },
      expected: { label: 'Delegation returned', summary: 'failed (replayed from the log): Broke.', tone: 'danger' },
    },
  ],
  'replay.matched': [
    {
      v: 1,
      payload: { turn: 3, replayTurn: 1, recordedSeq: 8, calls: [{ callId: 'c1', recordedCallId: 'r1', recordedSeq: 9, served: true }] },
      expected: { label: 'Replay matched', summary: 'turn 3 asks for the same calls as the recording; 1 of 1 results served from the log' },
    },
  ],
  'replay.diverged': [
    {
      v: 1,
      payload: {
        turn: 7,
        replayTurn: 2,
        reason: 'different_call',
        detail: 'write_file instead of read_file',
        callIndex: 0,
        mode: 'stop',
        sourceSessionId: 'src',
        recorded: { seq: 9, calls: [call] },
        replayed: { seq: 20, calls: [call] },
      },
      expected: { label: 'Replay diverged', summary: 'at turn 7: write_file instead of read_file', tone: 'warning' },
    },
  ],
  'memory.written': [{ v: 1, payload: { key: 'plan', value: { steps: 3 }, version: 2 }, expected: { label: 'Memory written', summary: 'plan (v2)' } }],
  'workspace.seeded': [
    {
      v: 1,
      payload: {
        source: 'git',
        commit: 'a'.repeat(40),
        files: 12,
        bytes: 3400,
        url: 'https://git.example/acme/api.git',
        ref: 'main',
        revision: 'b'.repeat(40),
      },
      expected: { label: 'Files seeded', summary: 'https://git.example/acme/api.git at main (bbbbbbb) · 12 files, 3400 bytes · commit aaaaaaa' },
    },
  ],
  'workspace.restored': [
    {
      v: 1,
      payload: { requestId: 'r1', atEvent: 12, commit: 'c'.repeat(40), paths: ['src/app.ts', 'docs'], requestedBy: 'u1' },
      expected: { label: 'Files restored', summary: 'src/app.ts, docs as at #12, by user u1 · commit ccccccc' },
    },
  ],
};

let eventNo = 0;
const wire = (type: string, version: number, payload: unknown) =>
  parseWireEvent({ eventNo: ++eventNo, sessionId: 's1', seq: eventNo, type, version, payload, createdAt: '2026-03-01T14:02:03.000Z' });

describe('the shared event decoder', () => {
  it('says where seeded files came from for an upload and for another session', () => {
    const seeded = (payload: Record<string, unknown>) => describeEvent(decodeWireEvent(wire('workspace.seeded', 1, { commit: 'a'.repeat(40), ...payload })));
    expect(seeded({ source: 'archive', files: 2, bytes: 10, uploadId: 'up1', filename: 'src.tar.gz' }).summary).toBe(
      'upload src.tar.gz · 2 files, 10 bytes · commit aaaaaaa',
    );
    expect(seeded({ source: 'session', files: 1, bytes: 1, fromSession: { sessionId: 's9', atEvent: 7 } }).summary).toBe(
      'session s9 at #7 · 1 files, 1 bytes · commit aaaaaaa',
    );
  });

  it('says a run resumed for isolation went on where the level is offered', () => {
    const resumed = decodeWireEvent(wire('run.resumed', 1, { reason: 'isolation', note: 'a worker offering gvisor took the run' }));
    expect(describeEvent(resumed)).toMatchObject({
      label: 'Run resumed',
      summary: 'on a worker offering the isolation it waited for: a worker offering gvisor took the run',
    });
  });

  it('has a case for every event type the engine writes, at every version it ever wrote', () => {
    expect(Object.keys(CASES).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const versions = Array.from({ length: eventVersion(type) }, (_, i) => i + 1);
      expect(
        CASES[type].map((c) => c.v),
        type,
      ).toEqual(versions);
    }
  });

  for (const type of EVENT_TYPES) {
    for (const { v, payload, expected } of CASES[type]) {
      it(`${type} v${v}: upcast to v${eventVersion(type)}, typed, labelled and summarised`, () => {
        const event = decodeWireEvent(wire(type, v, payload));
        expect(event.type).toBe(type);
        expect(event.version).toBe(eventVersion(type));
        expect(event.payload).toMatchObject(payload);
        expect(describeEvent(event)).toMatchObject(expected);
      });
    }
  }

  it('labels an answer cut at the output cap as truncated', () => {
    const usage = { inputTokens: 100, outputTokens: 20, estimated: true };
    const cut = decodeWireEvent(
      wire('model.responded', 1, { requestId: 'r2', text: 'aaaa [answer truncated]', finishReason: 'length', usage, costMicros: 18, truncated: true }),
    );
    expect(describeEvent(cut)).toMatchObject({ label: 'Model answered (truncated)', summary: expect.stringContaining('[answer truncated]') });
  });

  it('applies the schema defaults the engine applies when it reads its log', () => {
    const egress = decodeWireEvent(
      wire('egress.decided', 1, { callId: 'c', kind: 'http', method: 'GET', host: 'api.example', port: 443, allowed: true, reason: 'allowed' }),
    );
    expect(egress.type === 'egress.decided' && egress.payload.injectedHeaders).toEqual([]);
    const started = decodeWireEvent(wire('run.started', 1, { goal: 'g', config: { model: { model: 'm' } } }));
    expect(started.type === 'run.started' && started.payload.config.toolLoading).toBe('on_demand');
  });

  it('decodes a future type, a newer version and a malformed payload as unknown, never throwing', () => {
    const future = decodeWireEvent(wire('tool.paused', 1, { callId: 'c' }));
    expect(future).toMatchObject({ type: 'unknown', wireType: 'tool.paused', version: 1, payload: { callId: 'c' } });
    expect(describeEvent(future)).toEqual({
      label: 'tool.paused',
      summary: 'v1: an event type this version of Looplane does not know',
      tone: 'info',
      quiet: false,
    });
    const newer = decodeWireEvent(wire('tool.finished', 3, { callId: 'c', ok: true, output: '', truncated: false }));
    expect(newer).toMatchObject({ type: 'unknown', wireType: 'tool.finished', version: 3 });
    expect(headline(newer)).toMatch(/^tool.finished: v3: event \d+ \(tool.finished\) has version 3; this engine reads 1..2$/);
    const malformed = decodeWireEvent(wire('message.added', 1, { role: 'robot', text: 'x' }));
    expect(malformed).toMatchObject({ type: 'unknown', wireType: 'message.added' });
    expect(describeEvent(malformed).summary).toMatch(/is malformed at role/);
  });

  it('refuses what is not an event at all', () => {
    expect(() => parseWireEvent({ eventNo: 1, type: 'message.added' })).toThrow('not an event: sessionId');
  });

  it('keeps line breaks and more text for a terminal, and cuts one-line texts', () => {
    const finished = decodeWireEvent(wire('tool.finished', 2, { callId: 'c', ok: false, output: `1 failing\nat x\n${'y'.repeat(300)}`, truncated: false }));
    expect(describeEvent(finished, { multiline: true, maxLength: 20 }).summary).toBe('failed: 1 failing\nat x\nyyyyy… (295 more characters)');
    const oneLine = describeEvent(finished).summary;
    expect(oneLine).toHaveLength('failed: '.length + 160);
    expect(oneLine.endsWith('y…')).toBe(true);
    expect(headline(decodeWireEvent(wire('budget.exceeded', 1, CASES['budget.exceeded'][0]!.payload)))).toBe(
      'Budget exceeded: cost limit — the run waits for a raise',
    );
  });
});
