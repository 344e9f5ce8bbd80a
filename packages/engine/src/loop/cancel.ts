import { draft } from '../events/create-event';
import type { NewEvent } from '../events/event-types';
import type { EnginePorts } from '../ports/engine-ports';
import type { RunState } from '../state/run-state';
import { emitter } from './emitter';

/**
 * Cancels a run that is not driving (abort the drive first): a started call is recorded
 * interrupted, an open reservation is settled on the ledger, and `run.finished` closes the run —
 * one atomic batch after the settlement. No-op for a finished run.
 */
export async function cancelRun(ports: Pick<EnginePorts, 'store' | 'budget' | 'clock'>, state: RunState, reason: string): Promise<RunState> {
  if (state.status !== 'running') return state;
  const at = ports.clock.now();
  const events: NewEvent[] = [];
  for (const call of state.calls) {
    if (call.status === 'started') events.push(draft('tool.interrupted', { callId: call.id, reason: `the run was cancelled: ${reason}` }, at));
  }
  const cycle = state.cycle;
  if (cycle) {
    const spent = cycle.spent ?? { tokens: 0, costMicros: 0 };
    await ports.budget.settle(cycle.requestId, cycle.reserved, spent);
    events.push(
      draft('budget.charged', { requestId: cycle.requestId, ...spent }, at),
      draft(
        'budget.released',
        {
          requestId: cycle.requestId,
          tokens: Math.max(0, cycle.reserved.tokens - spent.tokens),
          costMicros: Math.max(0, cycle.reserved.costMicros - spent.costMicros),
        },
        at,
      ),
    );
  }
  events.push(draft('run.finished', { status: 'cancelled', error: reason }, at));
  await emitter(ports.store, state)(events);
  return state;
}
