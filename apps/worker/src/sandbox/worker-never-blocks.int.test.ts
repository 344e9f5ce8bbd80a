import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDatabase } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';

/**
 * A model that makes a FIFO and then asks the file tools to open it used to park a worker thread
 * on a blocking open() as root: four such runs took every libuv thread, and another team's run
 * sat at 0 events. Now the FIFO never survives its call (the commit removes it, and says so), and
 * the file tools open nothing that blocks (see beneath.ts). Another team's demo run finishes.
 */

const root = mkdtempSync(join(tmpdir(), 'looplane-never-blocks-'));
chmodSync(root, 0o711);
const s = setUpRuntimeSuite('never-blocks', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces') } });
afterAll(() => rm(root, { recursive: true, force: true }));

const catalogue = (): RunConfigInput['tools'] =>
  s.worker.sandbox!.tools.map((t) => ({ name: t.spec.name, description: t.spec.description, parameters: t.spec.parameters, idempotent: t.spec.idempotent }));

const FIFO_SCRIPT: ScriptTurn[] = [
  { calls: [{ tool: 'shell', args: { command: `python3 -c "import os; os.mkfifo('p'); os.mkfifo('q')"` } }] },
  { calls: [{ tool: 'read_file', args: { path: 'p' } }] },
  { calls: [{ tool: 'write_file', args: { path: 'p', content: 'x' } }] },
  { calls: [{ tool: 'edit_file', args: { path: 'q', old_string: 'a', new_string: 'b' } }] },
  // A FIFO made and read in one line stays inside the sandbox, under the call's time limit.
  { calls: [{ tool: 'shell', args: { command: `python3 -c "import os; os.mkfifo('r'); open('r').read()"`, timeout_ms: 1500 } }] },
  { calls: [{ tool: 'list_files', args: {} }] },
  { finish: 'done' },
];

type Finished = { ok: boolean; output: string };
const finishedOf = async (runId: string) =>
  (await s.t.db.event.findMany({ where: { runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } })).map((e) => e.payload as Finished);

describe('no model can freeze the shared worker', () => {
  it("four runs opening FIFOs: each call is refused with a clear result, and another team's demo-steps run finishes", async () => {
    await seedDatabase(s.t.db, { adminPassword: 'demo password 1' });
    const template = await s.t.db.agentTemplate.findFirstOrThrow({ where: { name: 'demo-steps' }, include: { endpoint: true } });
    const e = template.endpoint;
    const demo = {
      teamId: template.teamId,
      agentId: template.id,
      endpointId: e.id,
      busyPolicy: template.busyPolicy,
      limits: {
        model: e.model,
        contextWindow: e.contextWindow,
        maxOutputTokens: e.maxOutputTokens,
        inputMicrosPerMTok: Number(e.inputMicrosPerMTok),
        outputMicrosPerMTok: Number(e.outputMicrosPerMTok),
      },
    };
    const attackers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script: FIFO_SCRIPT });
        return createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager' } });
      }),
    );
    const victim = await createTestRun(s.t.db, demo, { config: { tools: template.tools as RunConfigInput['tools'] } });
    for (const ids of attackers) await s.client.enqueue({ ...ids, reason: 'start' });
    await s.client.enqueue({ ...victim, reason: 'start' });

    // With a thread parked on open(), none of these would ever finish.
    const done = await waitForRun(s.t.db, victim.runId, undefined, 90_000);
    expect(done.status).toBe('succeeded');
    expect((await finishedOf(victim.runId)).filter((f) => f.ok)).toHaveLength(11);

    for (const ids of attackers) {
      expect((await waitForRun(s.t.db, ids.runId, undefined, 90_000)).status).toBe('succeeded');
      const [made, read, written, edited, inside, listed] = await finishedOf(ids.runId);
      expect(made?.output).toMatch(/removed from the workspace after the call[\s\S]*- p: a FIFO \(named pipe\)[\s\S]*- q: a FIFO/);
      expect(read).toMatchObject({ ok: false, output: 'no such file: p' });
      expect(written?.ok).toBe(true);
      expect(edited).toMatchObject({ ok: false, output: 'no such file: q' });
      expect(inside?.ok).toBe(false);
      expect(inside?.output).toMatch(/killed|time/i);
      expect(listed?.output).toBe('p (1 bytes)');
    }
  }, 240_000);
});
