import type { NewEvent } from '@looplane/engine';

export type TerminalStatus = 'succeeded' | 'failed' | 'cancelled';

/**
 * What a batch of events changes in the `Run` and `Session` rows, applied by the same statement
 * that appends the batch, so the columns the dashboard lists can never disagree with the log.
 * Waits and resumptions are not here: the worker sets them when it releases or claims the lease.
 */
export interface BatchProjection {
  /** `run.started` is in the batch: stamp `Run.startedAt`. */
  started: boolean;
  /** `run.finished` is in the batch. */
  finished: { status: TerminalStatus; result: string | null; error: string | null } | null;
  /** Sum of `budget.charged` in the batch. */
  spentTokens: number;
  spentCostMicros: number;
  /** `tool.started` events in the batch (re-runs of an interrupted idempotent call count once more). */
  toolCalls: number;
}

/** Projects one batch. Pure and O(batch). */
export function projectBatch(events: readonly NewEvent[]): BatchProjection {
  const projection: BatchProjection = { started: false, finished: null, spentTokens: 0, spentCostMicros: 0, toolCalls: 0 };
  for (const event of events) {
    switch (event.type) {
      case 'run.started':
        projection.started = true;
        break;
      case 'run.finished':
        projection.finished = { status: event.payload.status, result: event.payload.result ?? null, error: event.payload.error ?? null };
        break;
      case 'budget.charged':
        projection.spentTokens += event.payload.tokens;
        projection.spentCostMicros += event.payload.costMicros;
        break;
      case 'tool.started':
        projection.toolCalls++;
        break;
      default:
        break;
    }
  }
  return projection;
}
