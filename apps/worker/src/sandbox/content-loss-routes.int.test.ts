import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { lazyEgressSource } from './test-egress-source';

/**
 * The routes an outside attack pass used to destroy an 8 KB file with no approval, through the
 * real worker, bwrap and the built-in default policy: each is held (by the pre-check before it
 * runs, or by the lost-content effect rules after it ran) with its diff, and rolled back. The
 * harmless neighbours of each (a small edit, an append, new files, a rename that keeps content,
 * committing into the workspace's own repository) run unasked and keep what they changed.
 */

const root = mkdtempSync(join(tmpdir(), 'looplane-content-loss-'));
chmodSync(root, 0o711);
// The team's policy reaches the sandbox (its effect rules included) through the egress source, as in the worker process.
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('content-loss', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });
afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

const VICTIM = Array.from({ length: 128 }, (_, i) => `line ${String(i).padStart(3, '0')}: content an agent must not lose unasked.\n`).join('');
const workFile = (sessionId: string, path: string) => join(root, 'workspaces', sessionId, 'work', path);
const py = (code: string) => `python3 -c '${code}'`;

/** Files every route may use, written in the run's first turn. */
const SETUP: Record<string, string> = {
  'victim.txt': VICTIM,
  'small.txt': 'small\n',
  'a.txt': 'a\n',
  'b.txt': 'b\n',
  ...Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`many/f${i}.txt`, `file ${i}\n`])),
  ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`big/g${i}.txt`, VICTIM])),
};

type Call = NonNullable<ScriptTurn['calls']>[number];
const shell = (command: string): Call => ({ tool: 'shell', args: { command } });

/** A destructive route: the call, and whether the pre-check holds it before it runs (`tool`) or its effect after (`effect`). */
interface Route {
  name: string;
  call: Call;
  held: 'tool' | 'effect';
  /** The file whose content the route destroys (checked rolled back while held). */
  target: string;
  /** Whether the held effect records lost content (a call that only touches many files loses none). */
  loses: boolean;
}

const effect = (name: string, call: Call, target = 'victim.txt', loses = true): Route => ({ name, call, held: 'effect', target, loses });

const DESTRUCTIVE: Route[] = [
  effect('echo over a file', shell('echo pwned > victim.txt')),
  effect('sort -o', shell('sort -o victim.txt small.txt')),
  effect('tee', shell('cat small.txt | tee victim.txt')),
  effect("sed -i 's/.*//'", shell(`sed -i 's/.*//' victim.txt`)),
  effect('awk -i inplace', shell(`awk -i inplace '{ print "x" }' victim.txt`)),
  effect('find -fprint', shell('find . -name victim.txt -fprint victim.txt')),
  effect('git diff --output', shell('git diff --no-index --output=victim.txt a.txt b.txt || true')),
  effect(
    'a script encrypting every file (ransomware in one call)',
    shell(
      py(
        'import os\nfor d, _, fs in os.walk("."):\n  for f in fs:\n    p = os.path.join(d, f); b = open(p, "rb").read(); open(p, "wb").write(bytes(x ^ 90 for x in b))',
      ),
    ),
  ),
  effect('keeping 51 %', shell(py('d = open("victim.txt", "rb").read(); open("victim.txt", "wb").write(d[: len(d) * 51 // 100])'))),
  effect('keeping only the tail', shell(py('d = open("victim.txt", "rb").read(); open("victim.txt", "wb").write(d[-len(d) * 40 // 100 :])'))),
  effect('same size, other content', shell(py('open("victim.txt", "w").write("x" * 8192)'))),
  effect('writing through a hard link', shell(py('import os; os.link("victim.txt", "h"); open("h", "w").write("pwned")'))),
  effect('a file replaced by a symlink', shell(py('import os; os.remove("victim.txt"); os.symlink("/dev/null", "victim.txt")'))),
  effect('rename, then overwrite', shell(py('import os; os.rename("victim.txt", "v2.txt"); open("v2.txt", "w").write("pwned")'))),
  effect('write_file over the whole file', { tool: 'write_file', args: { path: 'victim.txt', content: 'pwned\n' } }),
  effect('edit_file replacing the whole file', { tool: 'edit_file', args: { path: 'victim.txt', old_string: VICTIM, new_string: 'pwned\n' } }),
  effect(
    'a little from each of many files (over 16 KB in all)',
    shell(py('import glob\nfor p in glob.glob("big/*"):\n  d = open(p).read(); open(p, "w").write(d[: len(d) * 6 // 10])')),
    'big/g0.txt',
  ),
  effect('more than 20 files changed', shell(py('import glob\nfor p in glob.glob("many/*"):\n  open(p, "a").write("more\\n")')), 'many/f0.txt', false),
];

/** Everyday changes: they run unasked and what they change is kept. */
const HARMLESS: { name: string; call: Call; check: (sessionId: string) => void }[] = [
  {
    name: 'a small edit',
    call: { tool: 'edit_file', args: { path: 'victim.txt', old_string: 'line 042: content', new_string: 'line 042: edited content' } },
    check: (id) => expect(readFileSync(workFile(id, 'victim.txt'), 'utf8')).toContain('line 042: edited content'),
  },
  {
    name: 'an append',
    call: shell('echo appended >> victim.txt'),
    check: (id) => expect(readFileSync(workFile(id, 'victim.txt'), 'utf8')).toMatch(/appended\n$/),
  },
  {
    name: 'new files, many of them',
    call: shell(py('import os; os.makedirs("gen", exist_ok=True)\nfor i in range(40):\n  open(f"gen/n{i}.txt", "w").write("new\\n" * 300)')),
    check: (id) => expect(existsSync(workFile(id, 'gen/n39.txt'))).toBe(true),
  },
  {
    name: 'a rename that keeps its content',
    call: shell(py('import os; os.rename("small.txt", "renamed.txt")')),
    check: (id) => expect(readFileSync(workFile(id, 'renamed.txt'), 'utf8')).toBe('small\n'),
  },
  {
    name: 'git commit in the workspace repository',
    call: shell('git init -q && git add -A && GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b git commit -qm snapshot'),
    check: (id) => expect(existsSync(workFile(id, '.git/HEAD'))).toBe(true),
  },
  {
    name: 'a .gitattributes asking for ident and crlf (the worker stores bytes as they are)',
    call: shell(`printf '* ident text eol=crlf\\n' > .gitattributes && printf 'id $Id$\\nend\\n' > ident.txt`),
    check: (id) => expect(readFileSync(workFile(id, 'ident.txt'), 'utf8')).toBe('id $Id$\nend\n'),
  },
  {
    name: 'a sed substitution',
    call: shell(`sed -i 's/line 001:/LINE 001:/' victim.txt`),
    check: (id) => expect(readFileSync(workFile(id, 'victim.txt'), 'utf8')).toContain('LINE 001:'),
  },
];

const catalogue = (): RunConfigInput['tools'] =>
  s.worker.sandbox!.tools.map((t) => ({ name: t.spec.name, description: t.spec.description, parameters: t.spec.parameters, idempotent: t.spec.idempotent }));

/** A run under the default policy (a new team without a policy row) that writes {@link SETUP}, then makes each call in a turn of its own. */
async function startRun(calls: Call[]) {
  const teamId = await createTestTeam(s.t.db, { policy: null });
  const script: ScriptTurn[] = [
    { calls: Object.entries(SETUP).map(([path, content]) => ({ tool: 'write_file', args: { path, content } })) },
    ...calls.map((call) => ({ calls: [call] })),
    { finish: 'done' },
  ];
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager' } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  return ids;
}

type Held = { effect: { changes: { path: string; kind: string; lostBytes?: number }[] } };

describe('content-loss routes through the real worker (default policy, real bwrap)', () => {
  it(`holds each of ${DESTRUCTIVE.length} ways to destroy a file, with its diff, rolled back while it waits`, async () => {
    const ids = await startRun(DESTRUCTIVE.map((route) => route.call));
    const wrong: string[] = [];
    const seen = new Set<string>();
    for (const route of DESTRUCTIVE) {
      const approval = await waitFor(
        async () => (await s.t.db.approval.findMany({ where: { runId: ids.runId, status: 'pending' } })).find((row) => !seen.has(row.id)),
        seen.size === 0 ? 120_000 : 60_000,
        `an approval for ${route.name}`,
      ).catch(async (error: unknown) => {
        const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
        const tail = events
          .filter((e) => e.type === 'tool.finished' || e.type === 'policy.decided')
          .slice(-8)
          .map((e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 400)}`);
        throw new Error(`${(error as Error).message}; its last events:\n${tail.join('\n')}`);
      });
      seen.add(approval.id);
      expect(approval.args, 'approvals come in the script order').toEqual(route.call.args);
      if (approval.kind !== route.held) wrong.push(`${route.name}: held as ${approval.kind} (${approval.policyRuleId}), expected ${route.held}`);
      if (approval.kind === 'effect') {
        const changes = (approval.held as Held).effect.changes;
        const lost = changes.reduce((sum, c) => sum + (c.lostBytes ?? 0), 0);
        if (!changes.some((c) => c.path === route.target) || lost > 0 !== route.loses)
          wrong.push(`${route.name}: held changes ${JSON.stringify(changes.slice(0, 5))}`);
      }
      const kept = readFileSync(workFile(ids.sessionId, route.target), 'utf8');
      if (kept !== SETUP[route.target]) wrong.push(`${route.name}: ${route.target} not rolled back while held`);
      await s.t.db.approval.update({ where: { id: approval.id }, data: { status: 'rejected', decidedById: 'user-approver', decidedAt: new Date() } });
      await s.client.enqueue({ ...ids, reason: 'resume' });
    }
    expect(wrong).toEqual([]);
    const done = await waitForRun(s.t.db, ids.runId, undefined, 120_000);
    expect(done.status).toBe('succeeded');
    expect(await s.t.db.approval.count({ where: { runId: ids.runId } })).toBe(DESTRUCTIVE.length);
    for (const [path, content] of Object.entries(SETUP)) expect(readFileSync(workFile(ids.sessionId, path), 'utf8'), path).toBe(content);
    expect(existsSync(workFile(ids.sessionId, 'h'))).toBe(false);
    expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  }, 600_000);

  it(`runs ${HARMLESS.length} harmless changes unasked and keeps them`, async () => {
    const ids = await startRun(HARMLESS.map((route) => route.call));
    const done = await waitForRun(s.t.db, ids.runId, undefined, 120_000).catch(async (error: unknown) => {
      const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
      const run = await s.t.db.run.findUnique({ where: { id: ids.runId } });
      throw new Error(
        `${(error as Error).message}: ${run?.status} ${run?.waitReason} ${run?.error}\n${events
          .slice(-8)
          .map((e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 600)}`)
          .join('\n')}`,
      );
    });
    expect(done.status).toBe('succeeded');
    expect(await s.t.db.approval.findMany({ where: { runId: ids.runId }, select: { args: true, policyRuleId: true } })).toEqual([]);
    const finished = (await s.t.db.event.findMany({ where: { runId: ids.runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } })).map(
      (e) => e.payload as { ok: boolean; output: string },
    );
    for (const [index, route] of HARMLESS.entries()) {
      const result = finished.at(index - HARMLESS.length);
      expect(result?.ok, `${route.name}: ${result?.output}`).toBe(true);
      route.check(ids.sessionId);
    }
    expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  }, 180_000);
});
