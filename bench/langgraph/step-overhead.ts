// The peer's durable step overhead: one ReAct thread of N turns (each one tool call), model and tool
// answering in 0 ms, timed exactly as Looplane's bench/runtime/step-overhead.ts times its turns:
// from the start of one model call to the start of the next.
import { randomUUID } from 'node:crypto';
import { createCheckpointer, type CheckpointerKind } from './checkpointers';
import { buildReactGraph, FakeToolCallingModel, runThread, type Durability } from './react-graph';

export interface LangGraphStepRun {
  label: string;
  checkpointer: CheckpointerKind;
  durability: Durability;
  /** ms per turn, in order. */
  perTurn: number[];
  /** Messages in the final state (human + 2 per turn + the answer). */
  messages: number;
  /** Checkpoints stored for the thread (PostgresSaver only). */
  checkpoints: number | null;
  /** Stored bytes of the thread's rows, every checkpoint table (PostgresSaver only). */
  bytes: number | null;
  /** The thread's rows and bytes per checkpoint table (PostgresSaver only). */
  storage: Record<string, { rows: number; bytes: number }> | null;
}

/**
 * Runs a warm-up thread of `warmupTurns`, then the measured thread of `turns`, with a fresh
 * checkpointer of `kind` (for Postgres, a fresh database, dropped afterwards).
 */
export async function measureLangGraph(
  kind: CheckpointerKind,
  turns: number,
  options: { durability?: Durability; warmupTurns?: number } = {},
): Promise<LangGraphStepRun> {
  const durability = options.durability ?? 'async';
  const checkpointer = await createCheckpointer(kind);
  try {
    let starts: number[] = [];
    const model = (n: number) => new FakeToolCallingModel({ turns: n, thinkMs: 0, onCall: () => starts.push(performance.now()) });
    const warmupTurns = options.warmupTurns ?? 20;
    if (warmupTurns > 0) await runThread(buildReactGraph(model(warmupTurns), checkpointer.saver), randomUUID(), warmupTurns, durability);
    starts = [];
    const threadId = randomUUID();
    const messages = await runThread(buildReactGraph(model(turns), checkpointer.saver), threadId, turns, durability);
    const perTurn = starts.slice(1).map((at, i) => at - starts[i]!);
    const label = `LangGraph + ${kind === 'postgres' ? 'PostgresSaver' : kind === 'memory' ? 'MemorySaver' : 'no checkpointer'}${kind === 'none' ? '' : ` (durability ${durability})`}`;
    const storage = await checkpointer.threadStorage(threadId);
    const bytes = storage === null ? null : Object.values(storage).reduce((a, t) => a + t.bytes, 0);
    return {
      label,
      checkpointer: kind,
      durability,
      perTurn,
      messages: messages.length,
      checkpoints: await checkpointer.checkpointCount(threadId),
      bytes,
      storage,
    };
  } finally {
    await checkpointer.close();
  }
}
