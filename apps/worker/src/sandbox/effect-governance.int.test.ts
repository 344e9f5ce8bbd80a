import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDatabase } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun, sandboxCatalogue } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { lazyEgressSource } from './test-egress-source';

/**
 * Effect-based governance through the real worker and bwrap: a mutating call runs, its result is
 * decided by the team policy's effect rules before it is kept, and a deletion or truncation is
 * rolled back and held with its diff however it was made. These are the routes a string analysis
 * of the command line cannot see (the code is in a file the agent wrote first).
 */

const root = mkdtempSync(join(tmpdir(), 'looplane-effects-'));
chmodSync(root, 0o711);
// A host file outside every workspace that the scripts try to delete by its absolute path.
const sentinel = join(root, 'outside-sentinel.txt');
writeFileSync(sentinel, 'must survive');
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('effects', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });

afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

const catalogue = () => sandboxCatalogue(s.worker.sandbox!);

/** A run under the team's policy: the built-in default unless `document` is given. */
async function startRun(script: ScriptTurn[], document?: Record<string, unknown>) {
  // No policy row: the team is judged by the built-in default, as a new team is.
  const teamId = await createTestTeam(s.t.db, { policy: document ?? null });
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager' } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  return { ...ids, teamId };
}

const write = (path: string, content: string) => ({ tool: 'write_file', args: { path, content } });
const shell = (command: string) => ({ tool: 'shell', args: { command } });

/** The work tree as the sandbox sees it, read on the host. */
const workFile = (sessionId: string, path: string) => join(root, 'workspaces', sessionId, 'work', path);

type Held = { commit: string; baseCommit: string; effect: { changes: { path: string; kind: string }[] } };

async function pendingApproval(runId: string, seen: Set<string>) {
  return waitFor(
    async () => {
      const rows = await s.t.db.approval.findMany({ where: { runId, status: 'pending' } });
      return rows.find((row) => !seen.has(row.id));
    },
    30_000,
    'a pending approval',
  ).catch(async (error: unknown) => {
    // What the run did instead, for the failure message.
    const events = await s.t.db.event.findMany({ where: { runId }, orderBy: { seq: 'asc' } });
    const tail = events.slice(-6).map((e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 300)}`);
    const run = await s.t.db.run.findUnique({ where: { id: runId }, select: { status: true, waitReason: true } });
    throw new Error(`${(error as Error).message}; the run is ${JSON.stringify(run)}, its last events:\n${tail.join('\n')}`);
  });
}

/** What `approvals.decide` writes, then its wake-up. */
async function decide(ids: { runId: string; sessionId: string }, approvalId: string, status: 'approved' | 'rejected') {
  await s.t.db.approval.update({
    where: { id: approvalId },
    data: { status, decidedById: 'user-approver', decidedAt: new Date(), comment: status === 'rejected' ? 'keep the build' : null },
  });
  await s.client.enqueue({ ...ids, reason: 'resume' });
}

/** Ten ways to delete a directory that no command-line analysis can see; each writes its code first. */
const ROUTES: { name: string; setup: { path: string; content: string }[]; command: string; target: string }[] = [
  {
    name: 'python3 x.py',
    // It also tries the host file outside the workspace, by its absolute path.
    setup: [
      { path: 'x1.py', content: `import os, shutil\nshutil.rmtree("build1")\ntry:\n    os.remove(${JSON.stringify(sentinel)})\nexcept OSError:\n    pass\n` },
    ],
    command: 'python3 x1.py',
    target: 'build1',
  },
  {
    name: 'python3 -m x',
    setup: [{ path: 'cleaner2.py', content: 'import shutil\nshutil.rmtree("build2")\n' }],
    command: 'python3 -m cleaner2',
    target: 'build2',
  },
  { name: 'python3 < x.py', setup: [{ path: 'x3.py', content: 'import os\nos.remove("build3/out.o")\n' }], command: 'python3 < x3.py', target: 'build3' },
  {
    name: 'node -r ./x.js',
    setup: [
      { path: 'x4.js', content: 'require("fs").rmSync("build4", { recursive: true });\n' },
      { path: 'main4.js', content: 'console.log("main");\n' },
    ],
    command: 'node -r ./x4.js main4.js',
    target: 'build4',
  },
  {
    name: 'node x.mjs',
    setup: [{ path: 'x5.mjs', content: 'import { rmSync } from "node:fs";\nrmSync("build5", { recursive: true });\n' }],
    command: 'node x5.mjs',
    target: 'build5',
  },
  {
    name: 'sed -n -f x.sed',
    setup: [
      { path: 'x6.sed', content: '1e rm -rf build6\n' },
      { path: 'f6.txt', content: 'one line\n' },
    ],
    command: 'sed -n -f x6.sed f6.txt',
    target: 'build6',
  },
  { name: 'make test (a Makefile)', setup: [{ path: 'Makefile', content: 'test:\n\t@rm -rf build7\n' }], command: 'make test', target: 'build7' },
  {
    name: 'awk with -F and a program file',
    setup: [{ path: 'x8.awk', content: 'BEGIN { c = "rm -rf " "build8"; system(c) }\n' }],
    command: 'awk -F : -f x8.awk /dev/null',
    target: 'build8',
  },
  {
    name: 'HOME=… git diff with a planted diff.external',
    setup: [
      { path: 'h9/.gitconfig', content: '[diff]\n\texternal = rm -rf build9 #\n' },
      { path: 'a9', content: 'a\n' },
      { path: 'b9', content: 'b\n' },
    ],
    command: 'HOME=/workspace/h9 git diff --no-index a9 b9',
    target: 'build9',
  },
  {
    name: 'npm test (a package.json script)',
    setup: [{ path: 'package.json', content: '{ "name": "demo", "version": "1.0.0", "scripts": { "test": "rm -rf build10" } }\n' }],
    command: 'npm test',
    target: 'build10',
  },
];

describe('effect-based governance (real worker, real bwrap)', () => {
  it('holds each of ten hidden deletions with its diff; rejecting keeps it rolled back, approving applies exactly the recorded result', async () => {
    const setup: ScriptTurn = {
      calls: ROUTES.flatMap((route) => [
        write(`${route.target}/out.o`, `object code of ${route.target}\n`),
        ...route.setup.map((file) => write(file.path, file.content)),
      ]),
    };
    const script: ScriptTurn[] = [setup, ...ROUTES.map((route) => ({ calls: [shell(route.command)] })), { finish: 'done' }];
    const ids = await startRun(script);
    const seen = new Set<string>();
    for (const [index, route] of ROUTES.entries()) {
      const approval = await pendingApproval(ids.runId, seen);
      seen.add(approval.id);
      // The call ran, and its result was rolled back: the files are there while it waits.
      expect(approval.kind, route.name).toBe('effect');
      expect(approval.policyRuleId, route.name).toBe('effect-deletes');
      expect(existsSync(workFile(ids.sessionId, `${route.target}/out.o`)), route.name).toBe(true);
      const held = approval.held as Held;
      expect(held.effect.changes, route.name).toContainEqual(expect.objectContaining({ path: `${route.target}/out.o`, kind: 'deleted' }));
      // The held commit is stored: its diff against the base is what the inbox shows.
      const diff = await s.worker.sandbox!.workspaces.diff(
        { sessionId: ids.sessionId, commit: held.baseCommit },
        { sessionId: ids.sessionId, commit: held.commit },
      );
      expect(diff, route.name).toContain(`deleted file mode`);
      expect(diff, route.name).toContain(`${route.target}/out.o`);
      // The last route is approved (applied as recorded); the others rejected (kept rolled back).
      const approve = index === ROUTES.length - 1;
      await decide(ids, approval.id, approve ? 'approved' : 'rejected');
      if (approve) await waitFor(async () => !existsSync(workFile(ids.sessionId, `${route.target}/out.o`)), 20_000, 'the approved deletion to apply');
    }
    const done = await waitForRun(s.t.db, ids.runId, undefined, 60_000);
    expect(done.status).toBe('succeeded');
    for (const route of ROUTES.slice(0, -1)) expect(existsSync(workFile(ids.sessionId, `${route.target}/out.o`)), route.name).toBe(true);
    expect(existsSync(workFile(ids.sessionId, `${ROUTES.at(-1)!.target}/out.o`))).toBe(false);
    expect(existsSync(sentinel)).toBe(true);
    const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
    expect(events.filter((e) => e.type === 'effect.decided')).toHaveLength(ROUTES.length);
    // The approved call finishes with its recorded output and commit; each rejection tells the model it was rolled back.
    const approvedCall = events.filter((e) => e.type === 'effect.decided').at(-1)!.payload as { callId: string; held: Held };
    const finished = events.find((e) => e.type === 'tool.finished' && (e.payload as { callId: string }).callId === approvedCall.callId)!.payload as {
      commit?: string;
      output: string;
    };
    expect(finished.commit).toBe(approvedCall.held.commit);
    const audit = await s.t.db.auditLog.findMany({ where: { teamId: ids.teamId, action: 'policy.effect_decided' } });
    expect(audit).toHaveLength(ROUTES.length);
    expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  }, 240_000);

  it('holds truncations (a script keeping a prefix, one opening a file for writing), and keeps harmless changes', async () => {
    const ids = await startRun([
      {
        calls: [
          write('notes.md', 'important notes\n'),
          write('data.csv', 'a,b\n1,2\n'),
          write('t.js', 'require("fs").writeFileSync("notes.md", "imp");\n'),
          write('t.py', 'open("data.csv", "w").close()\n'),
          write('log.txt', 'x\n'),
          // A move, and an edit that drops a file's last line: neither a deletion nor a truncation.
          write(
            'rename.py',
            'import os\nos.rename("log.txt", "log.old")\nlines = open("long.txt").readlines()\nopen("long.txt", "w").writelines(lines[:-1])\n',
          ),
          write('long.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join('')),
        ],
      },
      { calls: [shell('node t.js')] },
      { calls: [shell('python3 t.py')] },
      { calls: [shell('echo more >> log.txt && mkdir -p out && echo built > out/result.txt')] },
      { calls: [shell('python3 rename.py')] },
      { finish: 'done' },
    ]);
    const seen = new Set<string>();
    for (const file of ['notes.md', 'data.csv']) {
      const approval = await pendingApproval(ids.runId, seen);
      seen.add(approval.id);
      expect(approval.policyRuleId, JSON.stringify(approval.args)).toBe('effect-truncates');
      expect((approval.held as Held).effect.changes).toContainEqual(expect.objectContaining({ path: file, kind: 'truncated' }));
      await decide(ids, approval.id, 'rejected');
    }
    const done = await waitForRun(s.t.db, ids.runId, undefined, 60_000);
    expect(done.status).toBe('succeeded');
    expect(await s.t.db.approval.count({ where: { runId: ids.runId } })).toBe(2);
    const last = (await s.t.db.event.findMany({ where: { runId: ids.runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } })).at(-1)!.payload as {
      ok: boolean;
      commit?: string;
    };
    expect(last).toMatchObject({ ok: true });
    expect(last.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(workFile(ids.sessionId, 'out/result.txt'))).toBe(true);
    expect(existsSync(workFile(ids.sessionId, 'log.old'))).toBe(true);
    expect(readFileSync(workFile(ids.sessionId, 'long.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(9);
  }, 120_000);

  it('the seeded demo-script-cleanup agent has its scripted deletion held', async () => {
    await seedDatabase(s.t.db, { adminPassword: 'demo password 1' });
    const template = await s.t.db.agentTemplate.findFirstOrThrow({ where: { name: 'demo-script-cleanup' }, include: { endpoint: true } });
    const e = template.endpoint;
    const agent = {
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
    const ids = await createTestRun(s.t.db, agent, { config: { tools: template.tools as RunConfigInput['tools'] } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    const approval = await pendingApproval(ids.runId, new Set());
    expect(approval).toMatchObject({ kind: 'effect', policyRuleId: 'effect-deletes', args: { command: 'python3 clean.py' } });
    expect((approval.held as Held).effect.changes.map((c) => c.path).sort()).toEqual(['build/keep', 'build/out.o']);
  }, 120_000);

  it('a deny effect rule rolls the call back and fails it, even after the call itself was approved', async () => {
    const document = {
      version: 1,
      default: 'allow',
      rules: [
        {
          id: 'no-src-deletes',
          match: { tool: '*', effect: { deletes: true, paths: ['src/**'] } },
          outcome: 'deny',
          reason: 'sources are never deleted by agents',
        },
        { id: 'ask-rm', match: { tool: 'shell', anyCommand: ['rm'] }, outcome: 'require_approval' },
      ],
    };
    const ids = await startRun([{ calls: [write('src/main.ts', 'export {};\n')] }, { calls: [shell('rm -rf src')] }, { finish: 'done' }], document);
    const approval = await pendingApproval(ids.runId, new Set());
    expect(approval.kind).toBe('tool');
    await decide(ids, approval.id, 'approved');
    const done = await waitForRun(s.t.db, ids.runId, undefined, 60_000);
    expect(done.status).toBe('succeeded');
    expect(existsSync(workFile(ids.sessionId, 'src/main.ts'))).toBe(true);
    const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
    expect(events.find((e) => e.type === 'effect.decided')?.payload).toMatchObject({ decision: 'deny', ruleId: 'no-src-deletes' });
    const finished = events.filter((e) => e.type === 'tool.finished').at(-1)!.payload as { ok: boolean; output: string; commit?: string };
    expect(finished.ok).toBe(false);
    expect(finished.output).toContain('sources are never deleted by agents');
    expect(finished.commit).toBeUndefined();
    expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  }, 120_000);
});
