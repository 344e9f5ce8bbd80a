import type { Db } from '@looplane/db';
import type { Dispatch } from '../dispatch';
import { DEFAULT_RUN_START_LIMITS, type RunStartLimits } from './run-start-limits';

/** What the services that change runs need besides the database. */
export interface RunDeps {
  db: Db;
  dispatch: Dispatch;
  /** The team limits on starting work (default {@link DEFAULT_RUN_START_LIMITS}). */
  runLimits?: RunStartLimits;
}

/** The run-start limits a service applies. */
export const runLimitsOf = (deps: RunDeps): RunStartLimits => deps.runLimits ?? DEFAULT_RUN_START_LIMITS;
