// Keeps the side-by-side step-overhead benchmark from rotting: a 5-turn comparison must leave the
// durable record each system promises — Looplane's events (one finished tool call per turn) and
// LangGraph's checkpoints in Postgres (one per node step). No timing is asserted.
import { describe, expect, it } from 'vitest';
import { compareStepOverhead } from '../compare/step-overhead';

const TURNS = 5;

describe('durable step overhead, side by side', () => {
  it('records every step of both systems', { timeout: 180_000 }, async () => {
    const c = await compareStepOverhead(TURNS, 0);

    expect(c.looplane.map((r) => r.label)).toEqual(['Looplane, idempotent tool', 'Looplane, non-idempotent tool']);
    for (const r of c.looplane) {
      expect(r.toolCalls).toBe(TURNS);
      // 9 events per tool turn (bench/runtime/README.md), plus the run's start, answer and end.
      expect(r.events).toBeGreaterThan(9 * TURNS);
      expect(r.notices).toBeGreaterThan(0);
      expect(r.bytes).toBeGreaterThan(0);
    }

    const postgres = c.langgraph.filter((r) => r.checkpointer === 'postgres');
    expect(postgres.map((r) => r.durability)).toEqual(['async', 'sync']);
    for (const r of postgres) {
      // The input, the start, then the agent and tools nodes of each turn, then the answering agent.
      expect(r.checkpoints).toBe(2 * TURNS + 3);
      expect(r.bytes).toBeGreaterThan(0);
    }
    for (const r of c.langgraph) {
      // The question, a tool call and its result per turn, the answer: every system ran the workload.
      expect(r.messages).toBe(2 * TURNS + 2);
      expect(r.perTurn).toHaveLength(TURNS);
    }
    for (const r of c.looplane) expect(r.summary.p50).toBeGreaterThan(0);
    expect(c.floor.p50).toBeGreaterThan(0);
  });
});
