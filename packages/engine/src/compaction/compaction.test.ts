import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/create-event';
import { drive } from '../loop/drive';
import { buildTurnRequest, nextPromptBytes } from '../state/build-request';
import { estimatePromptTokens, promptBytes } from '../prompt/tokens';
import { apply, fold, foldUntil } from '../state/fold';
import { initialState } from '../state/run-state';
import { fixedClock, longScript, longScriptTools, payloadsOf, sampleCatalogue, startFixture } from '../testing';

const SYSTEM = 'You are a careful engineer. Never push to main.';
const config = (summarizer: 'deterministic' | 'model') => ({
  systemPrompt: SYSTEM,
  tools: sampleCatalogue(),
  model: { model: 'scripted', contextWindow: 6000, maxOutputTokens: 500, inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000 },
  compaction: { summarizer, keepRecentTurns: 2, threshold: 0.8 },
});

async function compactedRun(summarizer: 'deterministic' | 'model', turns = 40) {
  const f = await startFixture({ goal: 'Fix the flaky test in module-3.', config: config(summarizer), script: longScript(turns), tools: longScriptTools() });
  // A pinned notice in the middle of the log must survive every compaction.
  await f.store.append([createEvent('message.added', { role: 'notice', text: 'Policy notice: writes to /etc are denied.' }, fixedClock())], 1);
  const { state } = await drive({ ports: f.ports, maxSteps: 200 });
  return { f, state };
}

describe('context compaction', () => {
  it('summarises older turns when the prompt would exceed the threshold, keeping pinned content and recent turns', async () => {
    const { f, state } = await compactedRun('deterministic');
    const applied = payloadsOf(f.store.events, 'compaction.applied');
    expect(applied.length).toBeGreaterThan(1);
    for (const c of applied) {
      expect(c.tokensBefore + 500).toBeGreaterThan(0.8 * 6000);
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    }
    const kinds = state.context.map((i) => i.kind);
    expect(kinds.slice(0, 4)).toEqual(['system', 'goal', 'notice', 'summary']);
    expect(state.context[0]?.message.content.startsWith(SYSTEM)).toBe(true);
    expect(state.context[1]?.message.content).toBe('Fix the flaky test in module-3.');
    expect(state.context[2]?.message.content).toBe('Policy notice: writes to /etc are denied.');
    expect(kinds.filter((k) => k === 'summary')).toHaveLength(1);
    // Every prompt the model saw fitted the window.
    for (const r of payloadsOf(f.store.events, 'model.requested')) expect(r.promptTokens + r.maxOutputTokens).toBeLessThanOrEqual(6000);
    // The model saw pinned content in every request, compacted or not.
    for (const request of f.requests) {
      expect(request.messages[1]).toEqual({ role: 'user', content: 'Fix the flaky test in module-3.' });
      expect(request.messages.some((m) => m.content === 'Policy notice: writes to /etc are denied.')).toBe(true);
    }
  });

  it('replay reproduces the compacted context exactly: every request rebuilds from the log', async () => {
    const { f, state } = await compactedRun('deterministic');
    const events = await f.store.load();
    expect(fold(events)).toStrictEqual(state);
    const requested = events.filter((e) => e.type === 'model.requested');
    expect(requested).toHaveLength(f.requests.length);
    requested.forEach((event, i) => {
      const before = foldUntil(events, event.seq - 1);
      const sent = f.requests[i]!;
      expect(buildTurnRequest(before, sent.requestId)).toStrictEqual(sent);
    });
  });

  it('keeps running token and byte sums equal to a full recount at every event', async () => {
    const { f } = await compactedRun('deterministic');
    const state = initialState();
    for (const event of await f.store.load()) {
      apply(state, event);
      const request = buildTurnRequest(state, 'x');
      expect(state.contextTokens + state.toolTokens).toBe(estimatePromptTokens(request.messages, request.tools));
      expect(nextPromptBytes(state)).toBe(promptBytes(request.messages, request.tools));
    }
  });

  it('with the model summariser, reserves budget for the summary and records its usage and cost', async () => {
    const { f, state } = await compactedRun('model');
    const reservations = payloadsOf(f.store.events, 'budget.reserved').filter((r) => r.purpose === 'compaction');
    const applied = payloadsOf(f.store.events, 'compaction.applied');
    expect(reservations.length).toBe(applied.length);
    expect(applied[0]?.summary).toMatch(/^Scripted summary of \d+ lines/);
    expect(applied[0]?.usage?.estimated).toBe(false);
    expect(applied[0]?.costMicros).toBeGreaterThan(0);
    expect(fold(await f.store.load())).toStrictEqual(state);
  });

  it('keeps the context bounded over a long run', async () => {
    const f = await startFixture({ config: config('deterministic'), script: longScript(300), tools: longScriptTools() });
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(state.context.length).toBeLessThan(20);
    expect(state.contextTokens + state.toolTokens + 500).toBeLessThanOrEqual(6000);
  });

  it('does not loop when nothing can be compacted', async () => {
    const f = await startFixture({
      config: { ...config('deterministic'), tools: [{ name: 'dump', description: 'dump' }], toolLoading: 'eager' },
      script: [{ calls: [{ tool: 'dump', args: {} }] }, { finish: 'done' }],
      tools: { dump: () => 'x'.repeat(16_000) },
    });
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('succeeded');
    expect(payloadsOf(f.store.events, 'compaction.applied')).toEqual([]);
  });
});
