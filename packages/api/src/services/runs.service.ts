import type { Db } from '@looplane/db';
import type { Dispatch } from '../dispatch';

/** What the services that change runs need besides the database. */
export interface RunDeps {
  db: Db;
  dispatch: Dispatch;
}

// runs.create lives in run-create.ts (validation) and run-create-batch.ts (group commit); this
// module keeps exporting it for the callers that import it from here.
export { createRun } from './run-create';
