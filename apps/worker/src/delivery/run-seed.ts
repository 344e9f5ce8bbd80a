import { runSeed, type Queryable } from '@looplane/db';
import { workspaceSeededSchema, type WorkspaceSeed } from '@looplane/engine';

/** A run seeded from a repository: what delivery pushes back to. */
export type RepositorySeed = WorkspaceSeed & { source: 'git'; url: string; revision: string };

/** Where the run's files came from, when it is a repository; a sentence saying why not otherwise. */
export async function repositorySeedOf(pool: Queryable, runId: string): Promise<RepositorySeed | string> {
  const parsed = workspaceSeededSchema.safeParse(await runSeed(pool, runId));
  if (!parsed.success) return 'this run did not start from a repository (start it with workspace: { git: { url } })';
  const seed = parsed.data;
  if (seed.source !== 'git' || !seed.url || !seed.revision)
    return `this run started from ${seed.source === 'archive' ? 'an upload' : "another session's files"}, not a repository`;
  return { ...seed, source: 'git', url: seed.url, revision: seed.revision };
}
