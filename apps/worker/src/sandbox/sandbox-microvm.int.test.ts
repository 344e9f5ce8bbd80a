import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun, sandboxCatalogue } from '../testing/runtime-suite';
import { lazyEgressSource } from './test-egress-source';

// Real bwrap and a real QEMU microVM on one worker, a real runtime and the team's real policy: a
// rule sends the shell lines that run code into the microVM; everything else stays on bwrap.
const root = mkdtempSync(join(tmpdir(), 'looplane-sandbox-microvm-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('sandbox-microvm', {
  leaseTtlMs: 3000,
  sandbox: { driver: 'bwrap', offered: ['bwrap', 'microvm'], workspaceRoot: join(root, 'workspaces'), egress },
});

afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/** The guest kernel's release: the newest /boot/vmlinuz-* (what the microVM boots). */
const guestRelease = readdirSync('/boot')
  .filter((name) => name.startsWith('vmlinuz-'))
  .map((name) => name.slice('vmlinuz-'.length))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  .at(-1);

async function runWithEvents(policy: Record<string, unknown>, script: ScriptTurn[]) {
  const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow', ...policy } });
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: sandboxCatalogue(s.worker.sandbox!), toolLoading: 'eager' } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  await waitForRun(s.t.db, ids.runId, undefined, 150_000);
  const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
  return {
    finished: events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as { ok: boolean; output: string }),
    decided: events.filter((e) => e.type === 'policy.decided').map((e) => e.payload),
  };
}

describe('the microvm level on a worker that offers it next to bwrap', () => {
  it('the worker offers both and the microVM works', async () => {
    expect(s.worker.sandbox!.offered).toEqual(['bwrap', 'microvm']);
    expect(await s.worker.sandbox!.workingDrivers()).toEqual(['bwrap', 'microvm']);
  }, 120_000);

  it('a policy rule requiring microvm for lines that run code: python3 runs under the guest kernel, ls stays on bwrap', async () => {
    const rule = { id: 'code-in-vm', match: { tool: 'shell', runsCode: true }, outcome: 'allow', minimumDriver: 'microvm' };
    const { finished, decided } = await runWithEvents({ rules: [rule] }, [
      { calls: [{ tool: 'shell', args: { command: `python3 -c "import os; print(os.uname().release)"` } }] },
      { calls: [{ tool: 'shell', args: { command: 'ls -d . && uname -r' } }] },
      { finish: 'done' },
    ]);
    expect(finished.map((f) => f.ok)).toEqual([true, true]);
    expect(finished[0]!.output).toContain(`--- stdout ---\n${guestRelease}`);
    expect(finished[1]!.output).toContain(release());
    if (guestRelease !== release()) expect(finished[1]!.output).not.toContain(guestRelease);
    expect(decided).toEqual([
      { callId: expect.any(String), decision: 'allow', ruleId: 'code-in-vm', isolation: 'microvm' },
      { callId: expect.any(String), decision: 'allow', ruleId: 'default' },
    ]);
  }, 180_000);
});
