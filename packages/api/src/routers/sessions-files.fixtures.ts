import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type Prisma } from '@looplane/db';
import { git, PostgresWorkspaceStore, SnapshotWriter, WorkspaceReader } from '@looplane/workspaces';
import { makeRepo, writeAndCommit } from '@looplane/workspaces/testing';
import type { ApiDeps } from '../context';
import { appendEvents } from '../testing/fixtures';
import type { ApiTestbedWithAgent } from '../testing/testbed';

let calls = 0;

/**
 * Plays the worker for file tests over a real Postgres workspace store: one repository per run
 * (as the worker's workspace), each mutating "tool call" stored with the SnapshotWriter before
 * its `tool.finished` names the commit, exactly the order the worker keeps.
 */
export interface FilesFixture {
  /** `tb.deps` plus a reader on the store. */
  deps: ApiDeps;
  store: PostgresWorkspaceStore;
  /** A new run of the testbed's agent (through the API), its main session begun (`run.started` at seq 1). */
  newRun(): Promise<{ runId: string; sessionId: string }>;
  /**
   * Writes files in the run's repository on top of `from` (default: where it is), stores the
   * commit for `sessionId` and appends requested/started/finished events with it; returns the
   * commit and the seq of its `tool.finished`.
   */
  commit(runId: string, sessionId: string, files: Record<string, string | Buffer | null>, from?: string): Promise<{ commit: string; seq: number }>;
  /**
   * Seeds the run's files as the worker does when a run names some: writes them, stores the
   * commit and appends `workspace.seeded` naming it (with `fields`, e.g. a repository's url);
   * returns the commit and the seq of the event.
   */
  seed(runId: string, sessionId: string, files: Record<string, string | Buffer>, fields?: Record<string, unknown>): Promise<{ commit: string; seq: number }>;
  /** A reader with an empty cache of its own (reads everything from the store again). */
  freshReader(): Promise<WorkspaceReader>;
  close(): Promise<void>;
}

export async function filesFixture(tb: ApiTestbedWithAgent): Promise<FilesFixture> {
  const pool = createPgPool(tb.url, { max: 4 });
  const store = new PostgresWorkspaceStore(pool);
  const writer = new SnapshotWriter(store);
  const dirs: string[] = [];
  const cacheDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'looplane-files-cache-'));
    dirs.push(dir);
    return dir;
  };
  const deps: ApiDeps = { ...tb.deps, workspaces: new WorkspaceReader({ store, cacheDir: await cacheDir() }) };
  const repos = new Map<string, Awaited<ReturnType<typeof makeRepo>>>();

  const newRun = async () => {
    const api = await tb.as('operator');
    const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'write some files' });
    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, goal: true } });
    const session = await tb.db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! }, select: { id: true, config: true } });
    await appendEvents(tb.db, runId, session.id, [{ type: 'run.started', payload: { goal: run.goal, config: session.config as Prisma.InputJsonValue } }]);
    repos.set(runId, await makeRepo());
    return { runId, sessionId: session.id };
  };

  const commit: FilesFixture['commit'] = async (runId, sessionId, files, from) => {
    const repo = repos.get(runId)!;
    if (from) await git(['reset', '-q', '--hard', from], { gitDir: repo.gitDir, workTree: repo.workTree });
    const made = await writeAndCommit(repo, files);
    await writer.save({ gitDir: repo.gitDir, runId, sessionId, commit: made.commit, base: made.parent });
    const callId = `call-${++calls}`;
    const args = { paths: Object.keys(files) };
    await appendEvents(tb.db, runId, sessionId, [
      { type: 'tool.requested', payload: { callId, requestId: `req-${calls}`, name: 'write_files', args } },
      { type: 'tool.started', payload: { callId, name: 'write_files', args, attempt: 1 } },
      { type: 'tool.finished', payload: { callId, ok: true, output: 'written', truncated: false, commit: made.commit } },
    ]);
    const { lastSeq } = await tb.db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { lastSeq: true } });
    return { commit: made.commit, seq: lastSeq };
  };

  const seed: FilesFixture['seed'] = async (runId, sessionId, files, fields = {}) => {
    const repo = repos.get(runId)!;
    const made = await writeAndCommit(repo, files);
    await writer.save({ gitDir: repo.gitDir, runId, sessionId, commit: made.commit, base: made.parent });
    const bytes = Object.values(files).reduce((sum, content) => sum + Buffer.byteLength(content), 0);
    const payload = { source: 'git', url: 'https://git.example.test/acme/app.git', revision: 'f'.repeat(40), ...fields, commit: made.commit };
    await appendEvents(tb.db, runId, sessionId, [
      { type: 'workspace.seeded', payload: { ...payload, files: Object.keys(files).length, bytes } as Prisma.InputJsonValue },
    ]);
    const { lastSeq } = await tb.db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { lastSeq: true } });
    return { commit: made.commit, seq: lastSeq };
  };

  return {
    deps,
    store,
    newRun,
    commit,
    seed,
    freshReader: async () => new WorkspaceReader({ store, cacheDir: await cacheDir() }),
    close: async () => {
      for (const repo of repos.values()) await repo.cleanup();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
      await pool.end();
    },
  };
}
