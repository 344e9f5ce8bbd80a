import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drive } from '../loop/drive';
import { MemoryBudget, payloadsOf, runToEnd, startFixture } from '../testing';
import { costMicros, worstCase } from './cost';

const priced = { model: 'gpt-x', contextWindow: 50_000, maxOutputTokens: 2000, inputMicrosPerMTok: 2_500_000, outputMicrosPerMTok: 10_000_000 };
const echo = { tools: [{ name: 'echo', description: 'echo', idempotent: true }], toolLoading: 'eager' as const, model: priced };
const loop = (turns: number) => [...Array.from({ length: turns }, () => ({ calls: [{ tool: 'echo', args: { text: 'x'.repeat(300) } }] })), { finish: 'done' }];

describe('budget', () => {
  it('prices tokens in integer micro-dollars, rounding up', () => {
    expect(costMicros(priced, 1000, 0)).toBe(2500); // 1k tokens at $2.50 per million
    expect(costMicros(priced, 1, 1)).toBe(13); // 2.5 + 10 micro-dollars, rounded up
    expect(worstCase(priced, 1000, 2000)).toEqual({ tokens: 3000, costMicros: 2500 + 20_000 });
  });

  it('reserves the worst case before each call, charges actual usage after, releases the rest', async () => {
    const budget = new MemoryBudget(10_000_000);
    const f = await startFixture({ config: echo, script: loop(3), tools: { echo: () => 'ok' }, budget });
    await drive({ ports: f.ports });
    const reserved = payloadsOf(f.store.events, 'budget.reserved');
    const requested = payloadsOf(f.store.events, 'model.requested');
    const responded = payloadsOf(f.store.events, 'model.responded');
    const charged = payloadsOf(f.store.events, 'budget.charged');
    const released = payloadsOf(f.store.events, 'budget.released');
    expect(reserved).toHaveLength(4);
    reserved.forEach((r, i) => {
      expect(r.tokens).toBe(requested[i]!.promptTokens + priced.maxOutputTokens);
      expect(r.costMicros).toBe(costMicros(priced, requested[i]!.promptTokens, priced.maxOutputTokens));
      expect(charged[i]!.costMicros).toBe(responded[i]!.costMicros);
      expect(charged[i]!.costMicros + released[i]!.costMicros).toBe(r.costMicros);
      // The estimate the reservation used is what the (scripted) model reports.
      expect(responded[i]!.usage.inputTokens).toBe(requested[i]!.promptTokens);
    });
    expect(budget.spentMicros).toBe(charged.reduce((sum, c) => sum + c.costMicros, 0));
    expect(budget.open.size).toBe(0);
  });

  it('waits when a reservation is refused, and continues after the budget is raised', async () => {
    const budget = new MemoryBudget(22_000);
    const f = await startFixture({ config: echo, script: loop(4), tools: { echo: () => 'ok' }, budget });
    const first = await drive({ ports: f.ports });
    expect(first.outcome).toMatchObject({ kind: 'waiting', reason: 'budget' });
    const exceeded = payloadsOf(f.store.events, 'budget.exceeded');
    expect(exceeded).toHaveLength(1);
    expect(exceeded[0]).toMatchObject({ purpose: 'model', onExceed: 'wait' });
    expect(exceeded[0]!.reason).toMatch(/of 22000$/);
    expect(budget.spentMicros).toBeLessThanOrEqual(22_000);
    const { state } = await runToEnd({ ports: f.ports, raiseBudget: () => (budget.limitMicros += 1_000_000) });
    expect(state.status).toBe('succeeded');
    expect(payloadsOf(f.store.events, 'run.resumed')).toEqual([{ reason: 'budget', note: 'budget raised' }]);
  });

  it('fails the run when the policy is fail', async () => {
    const f = await startFixture({ config: { ...echo, onBudgetExceeded: 'fail' }, script: loop(1), budget: new MemoryBudget(100) });
    const { state } = await drive({ ports: f.ports });
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/^budget exceeded: needs \d+ µ\$; 0 spent and 0 reserved of 100$/);
  });

  it('reserves again under the same key after a crash between the ledger and the log (idempotent)', async () => {
    const budget = new MemoryBudget(10_000_000);
    const f = await startFixture({ config: echo, script: loop(0), budget });
    f.store.failNextAppend();
    await expect(drive({ ports: f.ports })).rejects.toThrow('lease lost');
    expect(budget.open.size).toBe(1);
    await drive({ ports: f.ports });
    expect(budget.log.filter((l) => l.startsWith('reserve'))).toHaveLength(1);
    expect(budget.open.size).toBe(0);
  });

  it('never spends over the limit, whatever the limit (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 8 }), async (limit, turns) => {
        const budget = new MemoryBudget(limit);
        const f = await startFixture({ config: { ...echo, onBudgetExceeded: 'fail' }, script: loop(turns), tools: { echo: () => 'ok' }, budget });
        const { state } = await drive({ ports: f.ports });
        expect(budget.spentMicros).toBeLessThanOrEqual(limit);
        expect(state.totals.costMicros).toBe(budget.spentMicros);
      }),
      { numRuns: 60 },
    );
  });
});
