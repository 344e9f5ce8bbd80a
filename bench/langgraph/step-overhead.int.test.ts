// Keeps the side-by-side step-overhead benchmark from rotting: a 5-turn comparison, two
// repetitions, must leave the durable record each system promises — Looplane's events (one finished
// tool call per turn) and every row the run wrote, LangGraph's checkpoints in Postgres (one per node
// step) — and report its figures in the results format. No timing is asserted.
import { describe, expect, it } from 'vitest';
import { stepFigures } from '../compare/step-figures';
import { compareStepOverhead } from '../compare/step-overhead';

const TURNS = 5;

describe('durable step overhead, side by side', () => {
  it('records every step of both systems, in every repetition', { timeout: 300_000 }, async () => {
    const c = await compareStepOverhead(TURNS, 0, 2);
    expect(c.repetitions).toHaveLength(2);

    for (const rep of c.repetitions) {
      expect(rep.looplane.map((r) => r.key)).toEqual(['idempotent', 'nonIdempotent', 'strict']);
      for (const r of rep.looplane) {
        expect(r.toolCalls).toBe(TURNS);
        // 9 events per tool turn (bench/runtime/README.md), plus the run's start, answer and end.
        expect(r.events).toBeGreaterThan(9 * TURNS);
        expect(r.notices).toBeGreaterThan(0);
        // Every row the run left is counted: its events, a policy decision's audit row per tool
        // call, the ledger's entries, and no table that gained rows is left out.
        expect(r.storage.tables.Event?.rows).toBe(r.events);
        expect(r.storage.tables.AuditLog?.rows).toBeGreaterThanOrEqual(TURNS);
        expect(r.storage.tables.BudgetEntry?.rows).toBeGreaterThan(0);
        expect(r.storage.tables.BudgetLedger?.rows).toBeGreaterThan(0);
        expect(r.storage.unattributed).toEqual([]);
        expect(r.storage.bytes).toBeGreaterThan(r.storage.tables.Event!.bytes);
      }
      // Strict: no model call starts before the tool result commits, so at least one commit per turn.
      const strict = rep.looplane.find((r) => r.key === 'strict')!;
      expect(strict.notices).toBeGreaterThanOrEqual(TURNS);

      const postgres = rep.langgraph.filter((r) => r.checkpointer === 'postgres');
      expect(postgres.map((r) => r.durability)).toEqual(['sync', 'async']);
      for (const r of postgres) {
        // The input, the start, then the agent and tools nodes of each turn, then the answering agent.
        expect(r.checkpoints).toBe(2 * TURNS + 3);
        expect(Object.keys(r.storage ?? {}).sort()).toEqual(['checkpoint_blobs', 'checkpoint_writes', 'checkpoints']);
        expect(r.storage?.checkpoints?.rows).toBe(r.checkpoints);
        expect(r.bytes).toBe(Object.values(r.storage ?? {}).reduce((a, t) => a + t.bytes, 0));
      }
      // The question, a tool call and its result per turn, the answer: every system ran the workload.
      for (const r of rep.langgraph) expect(r.messages).toBe(2 * TURNS + 2);
      for (const r of rep.looplane) expect(r.summary.p50).toBeGreaterThan(0);
      expect(rep.floor.p50).toBeGreaterThan(0);
    }

    const figures = stepFigures(c);
    const headline = figures.find((f) => f.key === 'step-overhead.strict-vs-sync')!;
    expect(headline.looplane.n).toBe(2);
    expect(headline.peer?.label).toContain('sync');
    expect(headline.goals.map((g) => g.text)).toEqual(['p50 ≤ 2 ms', '≥ 10× faster than `sync`']);
    expect(figures.map((f) => f.key)).toContain('step-overhead.strict-vs-async');
    expect(figures.map((f) => f.key)).toContain('step-overhead.storage');
  });
});
