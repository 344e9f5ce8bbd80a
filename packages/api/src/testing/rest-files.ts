// Vitest-only (registers hooks), like `rest-testbed.ts`: tests import it by relative path.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createPgPool, type PgPool } from '@looplane/db';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import type { ApiDeps } from '../context';
import type { RestTestbed } from './rest-testbed';

export interface RestFiles {
  /** The origin of a server whose deps also read session files. */
  readonly url: string;
  /** Those deps. */
  readonly deps: ApiDeps;
}

/**
 * A second server of {@link RestTestbed} whose deps read session files from the workspace store
 * (so `getSessionFiles` can succeed): a pool on the file's database and a reader cache, both
 * closed afterwards. Call it at the top level, after `restTestbed`.
 */
export function restWithFiles(rest: RestTestbed): RestFiles {
  let pool: PgPool | undefined;
  let cacheDir: string | undefined;
  let served: RestFiles | undefined;
  beforeAll(async () => {
    pool = createPgPool(rest.tb.url, { max: 2 });
    cacheDir = await mkdtemp(join(tmpdir(), 'looplane-rest-files-'));
    const deps = { ...rest.tb.deps, workspaces: new WorkspaceReader({ store: new PostgresWorkspaceStore(pool), cacheDir }) };
    served = { deps, url: await rest.serveWith(deps) };
  });
  afterAll(async () => {
    await pool?.end();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });
  const ready = () => {
    if (!served) throw new Error('restWithFiles: not set up yet (use it inside a test or hook)');
    return served;
  };
  return {
    get url() {
      return ready().url;
    },
    get deps() {
      return ready().deps;
    },
  };
}
