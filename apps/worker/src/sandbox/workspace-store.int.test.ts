import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture } from '@looplane/api/testing';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { FILE_TOOLS, GATED_POLICY } from '../fault/host-loss-scenario';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { WorkspaceCache } from './workspace-cache';

// Real bwrap, a real worker runtime and the postgres store; the worker runs as root (as in CI).
const root = mkdtempSync(join(tmpdir(), 'looplane-store-sandbox-'));
chmodSync(root, 0o711);
const workspaceRoot = join(root, 'workspaces');
const s = setUpRuntimeSuite('workspace-store', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot } });

afterAll(() => rm(root, { recursive: true, force: true }));

/** Deletes every session workspace on this host (the driver's own state under `.sandbox` stays). */
async function deleteLocalWorkspaces(): Promise<number> {
  const names = (await readdir(workspaceRoot)).filter((n) => n !== '.sandbox');
  for (const name of names) await rm(join(workspaceRoot, name), { recursive: true, force: true });
  return names.length;
}

async function startRun(script: ScriptTurn[]) {
  const fx = await createTeamFixture(s.t.db);
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'gated', activeVersion: 1, versions: { create: { version: 1, document: GATED_POLICY } } } });
  const agent = await createTestAgent(s.t.db, fx.teamId, { script });
  const run = await createTestRun(s.t.db, agent, { config: { tools: FILE_TOOLS, toolLoading: 'eager' } });
  await s.client.enqueue({ ...run, reason: 'start' });
  return { fx, run, deps: { db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) } };
}

const outputs = async (runId: string) =>
  (await s.t.db.event.findMany({ where: { runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } })).map((e) => e.payload as { ok: boolean; output: string });

describe('session files through the store (real worker, real bwrap)', () => {
  it('a run waiting on an approval reads back the files it wrote before the wait after every local workspace was deleted', async () => {
    const { fx, run, deps } = await startRun([
      { calls: [{ tool: 'write_file', args: { path: 'a.txt', content: 'written before the wait\n' } }] },
      { calls: [{ tool: 'write_file', args: { path: 'gate/c.txt', content: 'gated\n' } }] },
      { calls: [{ tool: 'read_file', args: { path: 'a.txt' } }] },
      { calls: [{ tool: 'shell', args: { command: 'cat a.txt gate/c.txt' } }] },
      { finish: 'done' },
    ]);
    await waitForRun(s.t.db, run.runId, 'waiting', 30_000);
    const approval = await waitFor(
      () => s.t.db.approval.findFirst({ where: { runId: run.runId, status: 'pending' } }).then((a) => a ?? undefined),
      10_000,
      'the approval',
    );
    expect(await deleteLocalWorkspaces()).toBeGreaterThan(0);
    const approver = await callerAs(deps, { userId: fx.members.approver.id });
    await approver.approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision: 'approve' });
    expect((await waitForRun(s.t.db, run.runId, undefined, 30_000)).status).toBe('succeeded');
    const [write, gated, read, shell] = await outputs(run.runId);
    expect([write?.ok, gated?.ok, read?.ok, shell?.ok]).toEqual([true, true, true, true]);
    expect(read!.output).toContain('written before the wait');
    expect(shell!.output).toContain('written before the wait\ngated');
  }, 60_000);

  it('the local cache evicts the least recently used workspaces past its cap, and an evicted session is restored on its next call', async () => {
    const { run } = await startRun([
      { calls: [{ tool: 'write_file', args: { path: 'big.txt', content: 'x'.repeat(200_000) } }] },
      { calls: [{ tool: 'write_file', args: { path: 'gate/next.txt', content: 'after the wait\n' } }] },
      { calls: [{ tool: 'read_file', args: { path: 'big.txt', limit: 1 } }] },
      { finish: 'done' },
    ]);
    await waitForRun(s.t.db, run.runId, 'waiting', 30_000);
    const sandbox = s.worker.sandbox!;
    const cache = new WorkspaceCache({
      root: workspaceRoot,
      workspaces: sandbox.workspaces,
      capMb: 0.0001,
      inUse: (id) => sandbox.inUse(id),
      logger: pino({ level: 'silent' }),
    });
    const evicted = await cache.sweep();
    expect(evicted).toContain(run.sessionId);
    expect(await readdir(workspaceRoot)).not.toContain(run.sessionId);
    const approval = await waitFor(
      () => s.t.db.approval.findFirst({ where: { runId: run.runId, status: 'pending' } }).then((a) => a ?? undefined),
      10_000,
      'the approval',
    );
    await s.t.db.approval.update({ where: { id: approval.id }, data: { status: 'approved', decidedAt: new Date() } });
    await s.client.enqueue({ ...run, reason: 'resume' });
    expect((await waitForRun(s.t.db, run.runId, undefined, 30_000)).status).toBe('succeeded');
    const results = await outputs(run.runId);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results[2]!.output).toContain('x');
  }, 60_000);
});
