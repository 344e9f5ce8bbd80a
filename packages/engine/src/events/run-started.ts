import type { RunConfig } from '../config/run-config';
import type { Clock } from './clock';
import { createEvent, draft } from './create-event';
import type { NewEvent } from './event-types';
import type { RepositoryContext } from './workspace-seeded';

/** Freezes a validated snapshot at every depth: one copy is shared by every run that has it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Builds `run.started` events for runs whose config snapshots repeat (a burst of runs of one agent
 * template). Each distinct snapshot, keyed by its JSON text, is validated once by `createEvent`
 * and its defaulted form reused, frozen, so no run can change another's; a snapshot the schema
 * refuses throws every time, exactly as `createEvent` does. The `capacity` snapshots validated
 * last are kept.
 */
export class RunStartedEvents {
  private readonly configs = new Map<string, RunConfig>();

  constructor(
    private readonly clock: Clock,
    private readonly capacity = 64,
  ) {}

  create(goal: string, configJson: string, repository?: RepositoryContext): NewEvent<'run.started'> {
    if (repository) return createEvent('run.started', { goal, config: JSON.parse(configJson) as never, repository }, this.clock);
    const known = this.configs.get(configJson);
    // The goal is the only other field; one the schema refuses takes the validating path for its error.
    if (known && goal.length > 0) return draft('run.started', { goal, config: known }, this.clock.now());
    const event = createEvent('run.started', { goal, config: JSON.parse(configJson) as never }, this.clock);
    this.remember(configJson, deepFreeze(event.payload.config));
    return event;
  }

  private remember(configJson: string, config: RunConfig): void {
    this.configs.delete(configJson);
    this.configs.set(configJson, config);
    if (this.configs.size > this.capacity) this.configs.delete(this.configs.keys().next().value!);
  }
}
