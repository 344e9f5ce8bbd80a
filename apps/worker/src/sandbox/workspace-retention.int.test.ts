import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresWorkspaceStore } from '@looplane/workspaces';
import { SessionWorkspaces } from '../sessions/session-workspaces';
import { ToolRegistry } from '../tools/tool-registry';
import { registerBuiltinTools } from '../tools/builtin-tools';
import { WorkerSandbox } from './worker-sandbox';
import { WorkspaceRetention } from './workspace-retention';

const DAY = 24 * 3600_000;
const logger = pino({ level: 'silent' });
const root = mkdtempSync(join(tmpdir(), 'looplane-retention-'));
chmodSync(root, 0o711);
const workspaceRoot = join(root, 'workspaces');
let t: TestDatabase;
let pool: PgPool;
let now = Date.parse('2026-11-30T00:00:00Z');
const clock = { now: () => now };

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await t?.drop();
  await rm(root, { recursive: true, force: true });
});

/** A run whose root session has a workspace with one stored commit; `endedDaysAgo` null: still running. */
async function sessionWithWorkspace(sandbox: WorkerSandbox, sessions: SessionWorkspaces, endedDaysAgo: number | null) {
  const teamId = await createTestTeam(t.db);
  const agent = await createTestAgent(t.db, teamId, {});
  const ids = await createTestRun(t.db, agent, {});
  await t.db.run.update({
    where: { id: ids.runId },
    data: endedDaysAgo === null ? { status: 'running' } : { status: 'succeeded', finishedAt: new Date(now - endedDaysAgo * DAY) },
  });
  const workspace = await sessions.prepare(sandbox.workspaces, ids.sessionId);
  await writeFile(join(workspace.path, 'f.txt'), 'x');
  const { commit } = await sandbox.workspaces.commit(ids.sessionId, 'write');
  return { ...ids, uid: workspace.uid, commit };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const uidLeased = (uid: number) => exists(join(workspaceRoot, '.uids', String(uid)));

describe('workspace retention (fake clock, real store, workspaces and uids)', () => {
  it('removes the stored files and local copies of runs that ended more than N days ago, frees their uids, and keeps the rest', async () => {
    const store = new PostgresWorkspaceStore(pool);
    const sessions = new SessionWorkspaces(pool, store);
    const sandbox = await WorkerSandbox.start({ driver: 'bwrap', workspaceRoot, environment: 'test', logger, sessionWorkspaces: sessions });
    const workspaces = sandbox.workspaces;
    const old = await sessionWithWorkspace(sandbox, sessions, 8);
    const recent = await sessionWithWorkspace(sandbox, sessions, 6);
    const alive = await sessionWithWorkspace(sandbox, sessions, null);
    // A directory the database knows nothing about is never touched.
    const stranger = await workspaces.create('unknown-session-1');
    const retention = new WorkspaceRetention({ pool, store, workspaces, root: workspaceRoot, retentionDays: 7, clock, logger });

    expect(await uidLeased(old.uid)).toBe(true);
    expect(await retention.sweep()).toEqual({ runs: [old.runId], local: [old.sessionId] });
    expect(await exists(join(workspaceRoot, old.sessionId))).toBe(false);
    expect(await uidLeased(old.uid)).toBe(false);
    expect(await store.has(old.runId, old.commit)).toBe(false);
    for (const kept of [recent, alive]) {
      expect(await exists(join(workspaceRoot, kept.sessionId, 'meta.json'))).toBe(true);
      expect(await uidLeased(kept.uid)).toBe(true);
      expect(await store.has(kept.runId, kept.commit)).toBe(true);
    }

    // Two days later the recent one is past the retention too; the running one never is.
    now += 2 * DAY;
    expect(await retention.sweep()).toEqual({ runs: [recent.runId], local: [recent.sessionId] });
    now += 365 * DAY;
    expect(await retention.sweep()).toEqual({ runs: [], local: [] });
    expect(await exists(join(workspaceRoot, alive.sessionId, 'meta.json'))).toBe(true);
    expect(await store.has(alive.runId, alive.commit)).toBe(true);
    expect(await exists(join(workspaceRoot, stranger.sessionId, 'meta.json'))).toBe(true);
    expect((await readdir(join(workspaceRoot, '.uids'))).sort()).toEqual([String(alive.uid), String(stranger.uid)].sort());

    // A later tool call of a removed session (a resumed branch) fails naming the removal instead of starting empty.
    const tools = registerBuiltinTools(new ToolRegistry(), sandbox);
    const runner = tools.runnerFor({ runId: old.runId, sessionId: old.sessionId, teamId: 'team', agentId: null });
    await expect(runner.run({ callId: 'c1', name: 'list_files', args: {} })).rejects.toThrow(
      /the files of this run were removed on .*: kept 7 days after the run ended \(LOOPLANE_WORKSPACE_RETENTION_DAYS\); start a new run instead/,
    );
    expect(await exists(join(workspaceRoot, old.sessionId))).toBe(false);

    // A fork from the removed run fails the same way, on any host.
    const child = await t.db.session.create({
      data: {
        runId: old.runId,
        parentId: old.sessionId,
        agentId: (await t.db.session.findUniqueOrThrow({ where: { id: old.sessionId } })).agentId,
        status: 'idle',
        config: {},
        workspaceCommit: old.commit,
      },
    });
    await expect(sessions.prepare(workspaces, child.id)).rejects.toThrow(/the files of this run were removed/);
    await sandbox.close();
  }, 60_000);
});
