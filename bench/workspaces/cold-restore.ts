// The cold-restore step of the snapshot benchmark: a session's workspace rebuilt from the store on
// a host that has never seen it.
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool } from '@looplane/db';
import { git, PostgresWorkspaceStore, restoreCommit, type GitOptions } from '@looplane/workspaces';

export interface Restore {
  /** Packs in the commit's chain (the initial snapshot + every call's). */
  packs: number;
  /** Bytes read from the store (the chain's packs). */
  bytesFetched: number;
  initMs: number;
  /** `restoreCommit`: the chain query, each pack read and `git index-pack`ed. */
  fetchMs: number;
  /** `git reset --hard` into the empty work tree. */
  checkoutMs: number;
  totalMs: number;
  /** Size of the restored git dir's objects and of the work tree. */
  objectBytes: number;
  workTreeBytes: number;
  files: number;
}

/** Bytes and files of a tree (regular files only). */
export async function dirBytes(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

/**
 * A cold restore on an empty host: a new git dir and an empty work tree (as
 * `WorkspaceManager.materialise` makes for a session it has never seen), the commit's chain of
 * packs from the store (`restoreCommit`), then `git reset --hard`. The store is a new one on a new
 * pool (its connection opened before the clock starts, as a worker's is).
 */
export async function coldRestore(databaseUrl: string, runId: string, commit: string, source: GitOptions): Promise<Restore> {
  const host = await mkdtemp(join(tmpdir(), 'looplane-bench-host-'));
  const pool = createPgPool(databaseUrl, { max: 2 });
  try {
    await pool.query('SELECT 1');
    const store = new PostgresWorkspaceStore(pool);
    const options: GitOptions = { gitDir: join(host, 'git'), workTree: join(host, 'work') };
    const t0 = performance.now();
    await mkdir(options.workTree!, { recursive: true });
    await git(['init', '-q', '-b', 'main'], options);
    const t1 = performance.now();
    if (!(await restoreCommit(store, options.gitDir, runId, commit))) throw new Error(`the store has no commit ${commit}`);
    const t2 = performance.now();
    await git(['reset', '-q', '--hard', commit], options);
    const t3 = performance.now();
    const chain = await store.chain(runId, commit);
    // The restored tree is the committed one, file for file.
    const [restoredTree, sourceTree] = await Promise.all([git(['rev-parse', 'HEAD^{tree}'], options), git(['rev-parse', `${commit}^{tree}`], source)]);
    if (restoredTree.stdout !== sourceTree.stdout) throw new Error('the restored tree differs from the saved one');
    const status = await git(['status', '--porcelain', '--untracked-files=all'], options);
    if (status.stdout !== '') throw new Error(`the restored work tree differs from its commit: ${status.stdout.slice(0, 200)}`);
    const [objects, work] = await Promise.all([dirBytes(join(options.gitDir, 'objects')), dirBytes(options.workTree!)]);
    return {
      packs: chain.length,
      bytesFetched: chain.reduce((sum, entry) => sum + entry.bytes, 0),
      initMs: t1 - t0,
      fetchMs: t2 - t1,
      checkoutMs: t3 - t2,
      totalMs: t3 - t0,
      objectBytes: objects.bytes,
      workTreeBytes: work.bytes,
      files: work.files,
    };
  } finally {
    await pool.end();
    await rm(host, { recursive: true, force: true });
  }
}
