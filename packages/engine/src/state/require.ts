import { AppError } from '@looplane/shared';
import type { RunConfig } from '../config/run-config';
import type { ModelCycle, RunState } from './run-state';

/** The run's config; a state without `run.started` cannot be driven. */
export function requireConfig(state: RunState): RunConfig {
  if (!state.config) throw new AppError('PRECONDITION_FAILED', 'the session has no run.started event');
  return state.config;
}

/** The open model cycle an action relies on; its absence means `next` and the state disagree (a bug). */
export function requireCycle(state: RunState): ModelCycle {
  if (!state.cycle) throw new AppError('INTERNAL', 'no budget reservation is open');
  return state.cycle;
}
