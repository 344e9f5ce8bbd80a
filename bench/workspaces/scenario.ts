// One scenario of the workspace snapshot benchmark (snapshot-cost.ts): a workspace of the given size,
// its initial snapshot, one-file and ten-file calls, each committed and saved, and a cold restore.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PgPool } from '@looplane/db';
import { createTestRun, type TestAgent } from '@looplane/db/testing';
import type { TestDatabase } from '@looplane/testkit';
import { commitWorkTree, git, PostgresWorkspaceStore, SnapshotWriter, type GitOptions } from '@looplane/workspaces';
import { coldRestore, dirBytes, type Restore } from './cold-restore';
import { pathOf, seededText, seededUnit, sizeOf } from './seeded-workspace';

export const quick = process.argv.includes('--quick');
export const REPETITIONS = quick ? 2 : 5;
export const CALLS = { oneFile: quick ? 10 : 50, tenFile: quick ? 5 : 20 };
/** Both workspaces use the same file sizes (2–18 KB, mean 10 KB), so a call's change is the same size in both. */
export const WORKSPACES = { small: { files: 10, bytes: 100_000 }, big: quick ? { files: 500, bytes: 5_000_000 } : { files: 5_000, bytes: 50_000_000 } };
export type WorkspaceName = keyof typeof WORKSPACES;

// ---------- one scenario ----------

/** The Postgres store, timing each `put` (the durable part of a save; the rest is `git pack-objects`). */
class TimedPostgresStore extends PostgresWorkspaceStore {
  lastPutMs = 0;

  override async put(...args: Parameters<PostgresWorkspaceStore['put']>): Promise<void> {
    const started = performance.now();
    await super.put(...args);
    this.lastPutMs = performance.now() - started;
  }
}

interface CallSeries {
  /** ms of the commit's git steps, per call. */
  commitMs: number[];
  /** ms of `SnapshotWriter.save` (pack + durable put), per call. */
  saveMs: number[];
  /** The part of `saveMs` in `store.put` (one transaction: index row + chunk rows, committed with fsync). */
  putMs: number[];
  /** Bytes each call added to the store (the pack's size). */
  bytes: number[];
}

export interface ScenarioResult {
  workspace: WorkspaceName;
  files: number;
  workTreeBytes: number;
  initial: { writeMs: number; commitMs: number; saveMs: number; bytes: number };
  oneFile: CallSeries;
  tenFile: CallSeries;
  restore: Restore;
  /** The floor under every git step: ms to spawn `true` and wait for it from this process (20 times, before the calls). */
  spawnFloorMs: number[];
  /** This process's resident memory then (a fork's cost grows with it). */
  rssBytes: number;
  /** What the run's packs take in Postgres: `pg_column_size` of its chunk rows, against the sum of pack bytes. */
  stored: { packs: number; packBytes: number; chunkColumnBytes: number };
}

/** `WorkspaceManager.commit`'s commit (one shell script of git steps): the new commit and its base (null: nothing changed). */
async function commitAll(options: GitOptions & { workTree: string }, message: string): Promise<{ commit: string; base: string } | null> {
  const { base, commit } = await commitWorkTree(options, message);
  return commit ? { commit, base } : null;
}

export interface Env {
  database: TestDatabase;
  pool: PgPool;
  agent: TestAgent;
}

export async function scenario(env: Env, name: WorkspaceName, rep: number, calls = CALLS): Promise<ScenarioResult> {
  const spec = WORKSPACES[name];
  const dir = await mkdtemp(join(tmpdir(), `looplane-bench-ws-${name}-`));
  try {
    const options: GitOptions & { workTree: string } = { gitDir: join(dir, 'git'), workTree: join(dir, 'work') };
    await mkdir(options.workTree!, { recursive: true });
    // As WorkspaceManager.create: an empty repository with one empty commit.
    await git(['init', '-q', '-b', 'main'], options);
    await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'workspace created'], options);
    const { runId, sessionId } = await createTestRun(env.database.db, env.agent);
    const store = new TimedPostgresStore(env.pool);
    const writer = new SnapshotWriter(store);
    const created = (await git(['rev-parse', 'HEAD'], options)).stdout.trim();
    await writer.save({ gitDir: options.gitDir, runId, sessionId, commit: created, base: null });

    const sizes = Array.from({ length: spec.files }, (_, i) => sizeOf(spec, i));
    let started = performance.now();
    for (let i = 0; i < spec.files; i++) {
      const target = join(options.workTree!, pathOf(i));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, seededText(`${rep}/${name}/file/${i}`, sizes[i]!));
    }
    const writeMs = performance.now() - started;
    started = performance.now();
    const first = await commitAll(options, 'initial files');
    const initialCommitMs = performance.now() - started;
    if (!first) throw new Error('the initial files made no commit');
    started = performance.now();
    const initialBytes = await writer.save({ gitDir: options.gitDir, runId, sessionId, ...first });
    const initial = { writeMs, commitMs: initialCommitMs, saveMs: performance.now() - started, bytes: initialBytes };

    const spawnFloorMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await new Promise<void>((resolve, reject) =>
        execFile('true', [], { cwd: '/', env: { PATH: '/usr/bin:/bin' } }, (error) => (error ? reject(error) : resolve())),
      );
      spawnFloorMs.push(performance.now() - t);
    }
    const rssBytes = process.memoryUsage.rss();

    let callNo = 0;
    const series = async (count: number, filesPerCall: number): Promise<CallSeries> => {
      const out: CallSeries = { commitMs: [], saveMs: [], putMs: [], bytes: [] };
      for (let c = 0; c < count; c++, callNo++) {
        // The tool's own work (not timed): rewrite `filesPerCall` distinct files with new content of their size.
        const picked = new Set<number>();
        for (let k = 0; picked.size < Math.min(filesPerCall, spec.files); k++)
          picked.add(Math.floor(seededUnit(`${rep}/${name}/pick/${callNo}/${k}`) * spec.files));
        for (const i of picked) await writeFile(join(options.workTree!, pathOf(i)), seededText(`${rep}/${name}/call/${callNo}/${i}`, sizes[i]!));
        let t = performance.now();
        const made = await commitAll(options, `tool call ${callNo}`);
        out.commitMs.push(performance.now() - t);
        if (!made) throw new Error(`call ${callNo} changed nothing`);
        t = performance.now();
        out.bytes.push(await writer.save({ gitDir: options.gitDir, runId, sessionId, ...made }));
        out.saveMs.push(performance.now() - t);
        out.putMs.push(store.lastPutMs);
      }
      return out;
    };

    const oneFile = await series(calls.oneFile, 1);
    const head = (await git(['rev-parse', 'HEAD'], options)).stdout.trim();
    const restore = await coldRestore(env.database.url, runId, head, options);
    const tenFile = await series(calls.tenFile, 10);

    const storedRows = await env.pool.query({
      text: `SELECT (SELECT count(*)::int FROM "WorkspacePack" WHERE "runId" = $1) AS packs, (SELECT coalesce(sum("bytes"), 0)::bigint FROM "WorkspacePack" WHERE "runId" = $1) AS "packBytes", (SELECT coalesce(sum(pg_column_size("data")), 0)::bigint FROM "WorkspacePackChunk" WHERE "runId" = $1) AS "chunkColumnBytes"`,
      values: [runId],
    });
    const row = storedRows.rows[0] as { packs: number; packBytes: string; chunkColumnBytes: string };
    const tree = await dirBytes(options.workTree!);
    return {
      workspace: name,
      files: tree.files,
      workTreeBytes: tree.bytes,
      initial,
      oneFile,
      tenFile,
      restore,
      spawnFloorMs,
      rssBytes,
      stored: { packs: row.packs, packBytes: Number(row.packBytes), chunkColumnBytes: Number(row.chunkColumnBytes) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
