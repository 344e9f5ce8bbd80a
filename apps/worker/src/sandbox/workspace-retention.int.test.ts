import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { WorkspaceManager } from '@looplane/sandbox';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionWorkspace } from '../sessions/fork-workspace';
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

/** A run whose root session has a workspace; `endedDaysAgo` null: the run is still running. */
async function sessionWithWorkspace(workspaces: WorkspaceManager, endedDaysAgo: number | null) {
  const teamId = await createTestTeam(t.db);
  const agent = await createTestAgent(t.db, teamId, {});
  const ids = await createTestRun(t.db, agent, {});
  await t.db.run.update({
    where: { id: ids.runId },
    data: endedDaysAgo === null ? { status: 'running' } : { status: 'succeeded', finishedAt: new Date(now - endedDaysAgo * DAY) },
  });
  const workspace = await workspaces.create(ids.sessionId);
  return { ...ids, uid: workspace.uid };
}

const exists = (path: string) => stat(path).then(() => true, () => false);
const uidLeased = (uid: number) => exists(join(workspaceRoot, '.uids', String(uid)));

describe('workspace retention (fake clock, real workspaces and uids)', () => {
  it('removes workspaces of runs that ended more than N days ago, frees their uids, and keeps the rest', async () => {
    const sandbox = await WorkerSandbox.start({ driver: 'bwrap', workspaceRoot, environment: 'test', logger, createWorkspace: (w, id) => createSessionWorkspace(w, pool, id) });
    const workspaces = sandbox.workspaces;
    const old = await sessionWithWorkspace(workspaces, 8);
    // A commit a fork of the old session could start from, while its workspace exists.
    const oldHead = await workspaces.head(old.sessionId);
    const recent = await sessionWithWorkspace(workspaces, 6);
    const alive = await sessionWithWorkspace(workspaces, null);
    // A directory the database knows nothing about is never touched.
    const stranger = await workspaces.create('unknown-session-1');
    const retention = new WorkspaceRetention({ pool, workspaces, root: workspaceRoot, retentionDays: 7, clock, logger });

    expect(await uidLeased(old.uid)).toBe(true);
    expect(await retention.sweep()).toEqual([old.sessionId]);
    expect(await exists(join(workspaceRoot, old.sessionId))).toBe(false);
    expect(await uidLeased(old.uid)).toBe(false);
    for (const kept of [recent, alive]) {
      expect(await exists(join(workspaceRoot, kept.sessionId, 'meta.json'))).toBe(true);
      expect(await uidLeased(kept.uid)).toBe(true);
    }

    // Two days later the recent one is past the retention too; the running one never is.
    now += 2 * DAY;
    expect(await retention.sweep()).toEqual([recent.sessionId]);
    now += 365 * DAY;
    expect(await retention.sweep()).toEqual([]);
    expect(await exists(join(workspaceRoot, alive.sessionId, 'meta.json'))).toBe(true);
    expect(await exists(join(workspaceRoot, stranger.sessionId, 'meta.json'))).toBe(true);
    expect((await readdir(join(workspaceRoot, '.uids'))).sort()).toEqual([String(alive.uid), String(stranger.uid)].sort());

    // A later tool call of a removed session fails naming the removal instead of starting empty.
    const tools = registerBuiltinTools(new ToolRegistry(), sandbox);
    const runner = tools.runnerFor({ runId: old.runId, sessionId: old.sessionId, teamId: 'team', agentId: null });
    const result = await runner.run({ callId: 'c1', name: 'list_files', args: {} });
    expect(result).toMatchObject({ ok: false, output: expect.stringMatching(new RegExp(`^not run: the workspace of session ${old.sessionId} was removed on .* \\(kept 7 days after its run ended, LOOPLANE_WORKSPACE_RETENTION_DAYS\\)`)) });
    expect(await exists(join(workspaceRoot, old.sessionId))).toBe(false);

    // A fork from the removed workspace fails clearly (no ancestor on this host holds the commit).
    const child = await t.db.session.create({ data: { runId: old.runId, parentId: old.sessionId, agentId: (await t.db.session.findUniqueOrThrow({ where: { id: old.sessionId } })).agentId, status: 'idle', config: {}, workspaceCommit: oldHead } });
    await expect(createSessionWorkspace(workspaces, pool, child.id)).rejects.toThrow(`no workspace on this host holds commit ${oldHead}`);
    await sandbox.close();
  }, 60_000);
});
