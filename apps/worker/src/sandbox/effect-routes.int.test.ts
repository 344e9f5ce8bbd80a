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
 * The policy-evasion routes against the real worker, bwrap and the built-in default policy: every
 * line that deletes or truncates a workspace file is held (by the pre-check before it runs, or by
 * the effect check after it ran, rolled back with its diff), and every harmless line runs unasked
 * with its changes kept. The pre-check's own suite of lines is packages/policy/src/shell/*-routes.test.ts;
 * this one runs them.
 */

const root = mkdtempSync(join(tmpdir(), 'looplane-effect-routes-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('effect-routes', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });

afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

const write = (path: string, content: string) => ({ tool: 'write_file', args: { path, content } });
const shell = (command: string) => ({ tool: 'shell', args: { command } });
const workFile = (sessionId: string, path: string) => join(root, 'workspaces', sessionId, 'work', path);

/** Ten lines, so that keeping a prefix of at most half of it is a truncation. */
const NOTES = Array.from({ length: 10 }, (_, i) => `note ${i + 1}: keep this line\n`).join('');

/** Files every route may use, written by the agent in its first turn (each is allowed: `write-workspace`). */
const SETUP: Record<string, string> = {
  'build/out.o': 'object code\n',
  'build/keep': 'kept\n',
  'notes.md': NOTES,
  'f.txt': 'one line\n',
  'edit.txt': 'alpha\n',
  'log.txt': 'first\n',
  'mv-src.txt': 'moving\n',
  'long.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''),
  'a.txt': 'a\n',
  'b.txt': 'b\n',
  'del.py': 'import shutil\nshutil.rmtree("build")\n',
  'delmod.py': 'import os\nos.remove("build/out.o")\n',
  'trunc.py': 'with open("notes.md", "r+") as f:\n    f.truncate(5)\n',
  'del.js': 'require("fs").rmSync("build", { recursive: true });\n',
  'del.mjs': 'import { rmSync } from "node:fs";\nrmSync("build", { recursive: true });\n',
  'del.test.js': 'require("node:fs").unlinkSync("build/out.o");\n',
  'main.js': 'console.log("main");\n',
  'del.awk': 'BEGIN { c = "rm -rf " "build"; system(c) }\n',
  'trunc.awk': 'BEGIN { printf "" > "notes.md" }\n',
  'del.sed': '1e rm -rf build\n',
  'trunc.sed': '1w notes.md\n',
  Makefile: 'test:\n\t@rm -rf build\n',
  'package.json': `${JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'rm -rf build', build: 'node del.js', lint: 'python3 del.py' } })}\n`,
  'h/.gitconfig': '[diff]\n\texternal = rm -rf build #\n',
  'x/git/config': '[diff]\n\texternal = rm -rf build #\n',
  'g.cfg': '[diff]\n\texternal = rm -rf build #\n',
  'hf/.gitconfig': '[core]\n\tfsmonitor = "rm -rf ../build #"\n',
  // rg runs its --pre program on every file it searches: `sh FILE` runs the file.
  'rg.cfg': '--pre=sh\n',
  'del.sh': 'rm -rf build\n',
  'pp/json.py': 'import shutil\nshutil.rmtree("build")\n',
  'list.txt': 'build/out.o\nbuild/keep\n',
};

type Held = { effect: { changes: { path: string; kind: string }[] } };
/**
 * `pre`: the pre-check holds the line before it runs (a `tool` approval: what it shows is destructive,
 * or what runs is not static, such as a variable that loads code); else it runs and its effect is held.
 */
type Destructive = { command: string; effect: 'deleted' | 'truncated'; pre?: true };

const DELETES = (command: string, pre?: true): Destructive => ({ command, effect: 'deleted', ...(pre ? { pre } : {}) });
const TRUNCATES = (command: string, pre?: true): Destructive => ({ command, effect: 'truncated', ...(pre ? { pre } : {}) });

const DESTRUCTIVE: Destructive[] = [
  // Python: a file, a module, stdin, inline code, a heredoc, subprocesses, a planted module.
  DELETES('python3 del.py'),
  DELETES('python3 -m delmod'),
  DELETES('python3 < del.py'),
  DELETES(`python3 -c 'import shutil; shutil.rmtree("build")'`),
  DELETES(`python3 - <<'EOF'\nimport shutil\nshutil.rmtree("build")\nEOF`),
  DELETES(`python3 -c 'import pathlib; pathlib.Path("build/out.o").unlink()'`),
  DELETES(`python3 -c 'import subprocess; subprocess.run(["rm", "-rf", "build"])'`),
  DELETES(`python3 -c "import base64, os; os.system(base64.b64decode('cm0gLXJmIGJ1aWxk').decode())"`),
  DELETES(`python3 -c 'import shutil; shutil.move("build", "/tmp/gone")'`),
  DELETES(`PYTHONPATH=/workspace/pp python3 -c 'import json'`, true),
  DELETES('cat del.py | python3', true),
  // Node: a file, ESM, -r, --import (a file and a data: URL), -e, -p, a heredoc, a test file, NODE_OPTIONS.
  DELETES('node del.js'),
  DELETES('node del.mjs'),
  DELETES('node -r ./del.js main.js'),
  DELETES('node --import ./del.mjs main.js'),
  DELETES(`node --import 'data:text/javascript,import fs from "node:fs"; fs.rmSync("build", { recursive: true })' main.js`),
  DELETES(`node -e "require('fs').rmSync('build', { recursive: true })"`),
  DELETES(`node -p "require('fs').unlinkSync('build/out.o')"`),
  DELETES(`node <<'EOF'\nrequire("fs").rmSync("build", { recursive: true })\nEOF`),
  DELETES(`node -e "require('child_process').execSync('rm -rf build')"`),
  DELETES('node --test del.test.js'),
  DELETES('NODE_OPTIONS=--require=./del.js node main.js', true),
  // awk: a program file with each option spelling; literal system() calls the pre-check reads.
  DELETES('awk -f del.awk /dev/null'),
  DELETES('awk -F : -f del.awk /dev/null'),
  DELETES('awk -v x=1 -f del.awk /dev/null'),
  DELETES('awk -vx=1 -F: -f del.awk /dev/null'),
  DELETES(`awk 'BEGIN{system("rm -rf build")}'`, true),
  DELETES(`awk -v x=1 'BEGIN{system("rm -rf build")}'`, true),
  DELETES(`awk -F : 'BEGIN{system("rm -rf build")}' /dev/null`, true),
  DELETES(`awk 'BEGIN{print "rm -rf build" | "sh"}'`, true),
  // sed: a script file with an e command; the same command on the line.
  DELETES('sed -n -f del.sed f.txt'),
  DELETES(`sed -n '1e rm -rf build' f.txt`, true),
  // Build tools and package scripts.
  DELETES('make test'),
  DELETES(`make test --eval='test: ; rm -rf build'`, true),
  DELETES('npm test'),
  DELETES('npm run test'),
  DELETES('npm run build'),
  DELETES('npm run lint'),
  // git with config from the workspace, through HOME, XDG_CONFIG_HOME and GIT_CONFIG_GLOBAL.
  DELETES('HOME=/workspace/h git diff --no-index a.txt b.txt'),
  DELETES('XDG_CONFIG_HOME=/workspace/x git diff --no-index a.txt b.txt'),
  DELETES('GIT_CONFIG_GLOBAL=/workspace/g.cfg git diff --no-index a.txt b.txt', true),
  // core.fsmonitor from a planted global config runs on git status in any repository.
  DELETES('git init -q r && cd r && HOME=/workspace/hf git status'),
  // rg with a config file from the workspace.
  DELETES('RIPGREP_CONFIG_PATH=/workspace/rg.cfg rg x del.sh'),
  // find and xargs running code per file; the literal ways.
  DELETES(`find build -type f -exec python3 -c 'import os, sys; os.remove(sys.argv[1])' {} ';'`),
  DELETES(`xargs -a list.txt python3 -c 'import os, sys; [os.remove(p) for p in sys.argv[1:]]'`),
  DELETES('find . -name out.o -delete', true),
  DELETES('rm -rf build', true),
  DELETES('rm build/out.o', true),
  DELETES('mv build /tmp/gone', true),
  DELETES(`perl -e 'unlink "build/out.o"'`, true),
  DELETES('git clean -fdx', true),
  // Truncations: scripts and inline code (held on their effect), and the literal emptying lines.
  TRUNCATES(`python3 -c 'open("notes.md", "w").close()'`),
  TRUNCATES(`python3 -c 'import os; os.truncate("notes.md", 0)'`),
  TRUNCATES('python3 trunc.py'),
  TRUNCATES(`node -e "require('fs').writeFileSync('notes.md', '')"`),
  TRUNCATES(`node -e "require('fs').truncateSync('notes.md', 10)"`),
  TRUNCATES('awk -f trunc.awk /dev/null'),
  TRUNCATES('sed -n -f trunc.sed /dev/null'),
  TRUNCATES('> notes.md', true),
  TRUNCATES(': > notes.md', true),
  TRUNCATES('tee notes.md </dev/null', true),
  TRUNCATES('sort -o notes.md /dev/null', true),
  TRUNCATES('cp /dev/null notes.md', true),
  TRUNCATES('truncate -s0 notes.md', true),
];

/** Everyday lines: they run unasked and what they change is kept (`creates`: a file there afterwards). */
const HARMLESS: { command: string; creates?: string }[] = [
  { command: 'ls -la' },
  { command: 'cat notes.md | wc -l' },
  { command: 'grep -rn keep .' },
  { command: `find . -name '*.py' | sort` },
  { command: 'git log --oneline -1 || true' },
  { command: 'git diff --no-index a.txt b.txt || true' },
  { command: `awk -v x=1 'BEGIN{print x}'` },
  { command: `awk -F : '{print $1}' f.txt` },
  { command: 'sed -n 1p f.txt' },
  { command: `python3 -c 'print(1)'` },
  { command: `node -p '1 + 1'` },
  { command: 'jq .name package.json' },
  { command: 'mkdir -p out && echo hi > out/h1.txt', creates: 'out/h1.txt' },
  { command: `python3 -c 'open("h2.txt", "w").write("x")'`, creates: 'h2.txt' },
  { command: `node -e "require('fs').writeFileSync('h3.txt', 'x')"`, creates: 'h3.txt' },
  { command: 'echo more >> log.txt' },
  { command: `python3 -c 'import os; os.rename("mv-src.txt", "mv-dst.txt")'`, creates: 'mv-dst.txt' },
  { command: `python3 -c 'lines = open("long.txt").readlines(); open("long.txt", "w").writelines(lines[:-1])'` },
  { command: 'mkdir -p out2 && touch out2/a', creates: 'out2/a' },
  { command: 'echo x | tee h20.txt', creates: 'h20.txt' },
  { command: 'sort f.txt > sorted.txt', creates: 'sorted.txt' },
  { command: `printf 'x\\n' > h24.txt`, creates: 'h24.txt' },
  { command: `sed -i 's/alpha/gamma/' edit.txt` },
];

/** A run of the default policy (no policy row, as a new team) that writes {@link SETUP} and then runs each line in a turn of its own. */
async function startRun(lines: string[]) {
  const teamId = await createTestTeam(s.t.db, { policy: null });
  const tools: RunConfigInput['tools'] = s.worker.sandbox!.tools.map((t) => ({
    name: t.spec.name,
    description: t.spec.description,
    parameters: t.spec.parameters,
    idempotent: t.spec.idempotent,
  }));
  const script: ScriptTurn[] = [
    { calls: Object.entries(SETUP).map(([path, content]) => write(path, content)) },
    ...lines.map((command) => ({ calls: [shell(command)] })),
    { finish: 'done' },
  ];
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools, toolLoading: 'eager' } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  return ids;
}

/** Runs `routes` in one run, rejecting each held call; returns what was not as expected. */
async function holdsEach(routes: Destructive[]): Promise<string[]> {
  const ids = await startRun(routes.map((route) => route.command));
  const wrong: string[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    const approval = await waitFor(
      async () => (await s.t.db.approval.findMany({ where: { runId: ids.runId, status: 'pending' } })).find((row) => !seen.has(row.id)),
      // The first waits for the setup's writes too; four runs share the machine.
      seen.size === 0 ? 120_000 : 60_000,
      `an approval for ${route.command}`,
    ).catch(async (error: unknown) => {
      // What the run did instead, for the failure message.
      const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
      const tail = events.slice(-6).map((e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 400)}`);
      const run = await s.t.db.run.findUnique({ where: { id: ids.runId }, select: { status: true, waitReason: true } });
      throw new Error(`${(error as Error).message}; the run is ${JSON.stringify(run)}, its last events:\n${tail.join('\n')}`);
    });
    seen.add(approval.id);
    // Approvals come in the script's order: a destructive line that ran unheld would show here as the next one's.
    expect((approval.args as { command: string }).command, 'the next held call').toBe(route.command);
    const kind = route.pre ? 'tool' : 'effect';
    if (approval.kind !== kind) wrong.push(`${route.command}: held as ${approval.kind}, expected ${kind} (${approval.policyRuleId})`);
    if (approval.kind === 'effect') {
      const target = route.effect === 'deleted' ? 'build/out.o' : 'notes.md';
      const changes = (approval.held as Held).effect.changes;
      if (!changes.some((c) => c.path === target && c.kind === route.effect)) wrong.push(`${route.command}: held changes ${JSON.stringify(changes)}`);
      if (approval.policyRuleId !== (route.effect === 'deleted' ? 'effect-deletes' : 'effect-truncates'))
        wrong.push(`${route.command}: rule ${approval.policyRuleId}`);
    }
    // While it waits, the workspace is as it was before the call.
    if (!existsSync(workFile(ids.sessionId, 'build/out.o')) || readFileSync(workFile(ids.sessionId, 'notes.md'), 'utf8') !== NOTES)
      wrong.push(`${route.command}: not rolled back`);
    await s.t.db.approval.update({ where: { id: approval.id }, data: { status: 'rejected', decidedById: 'user-approver', decidedAt: new Date() } });
    await s.client.enqueue({ ...ids, reason: 'resume' });
  }
  const done = await waitForRun(s.t.db, ids.runId, undefined, 120_000);
  expect(done.status).toBe('succeeded');
  // Nothing else was held, and every rejection kept its call undone.
  expect(await s.t.db.approval.count({ where: { runId: ids.runId } })).toBe(routes.length);
  expect(readFileSync(workFile(ids.sessionId, 'build/out.o'), 'utf8')).toBe('object code\n');
  expect(readFileSync(workFile(ids.sessionId, 'notes.md'), 'utf8')).toBe(NOTES);
  expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  return wrong;
}

/** Lines per run: under the default no-progress breaker (40 turns without a change), as rejected calls change nothing. */
const PER_RUN = 20;

describe('policy-evasion routes through the real worker (default policy, real bwrap)', () => {
  it('has at least 60 routes', () => {
    expect(DESTRUCTIVE.length + HARMLESS.length).toBeGreaterThanOrEqual(60);
  });

  it(`holds each of ${DESTRUCTIVE.length} destructive lines: the pre-check before it runs, or its effect after, rolled back`, async () => {
    const chunks = Array.from({ length: Math.ceil(DESTRUCTIVE.length / PER_RUN) }, (_, i) => DESTRUCTIVE.slice(i * PER_RUN, (i + 1) * PER_RUN));
    const wrong = (await Promise.all(chunks.map((chunk) => holdsEach(chunk)))).flat();
    expect(wrong).toEqual([]);
  }, 600_000);

  it(`runs ${HARMLESS.length} harmless lines unasked and keeps what they changed`, async () => {
    const ids = await startRun(HARMLESS.map((route) => route.command));
    const done = await waitForRun(s.t.db, ids.runId, undefined, 120_000);
    expect(done.status).toBe('succeeded');
    expect(await s.t.db.approval.findMany({ where: { runId: ids.runId }, select: { args: true, policyRuleId: true } })).toEqual([]);
    const finished = (await s.t.db.event.findMany({ where: { runId: ids.runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } })).map(
      (e) => e.payload as { ok: boolean; output: string },
    );
    const results = finished.slice(-HARMLESS.length);
    for (const [index, route] of HARMLESS.entries()) {
      expect(results[index]?.ok, `${route.command}: ${results[index]?.output}`).toBe(true);
      if (route.creates) expect(existsSync(workFile(ids.sessionId, route.creates)), route.command).toBe(true);
    }
    expect(readFileSync(workFile(ids.sessionId, 'log.txt'), 'utf8')).toBe('first\nmore\n');
    expect(readFileSync(workFile(ids.sessionId, 'edit.txt'), 'utf8')).toBe('gamma\n');
    expect(readFileSync(workFile(ids.sessionId, 'long.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(9);
    expect(readFileSync(workFile(ids.sessionId, 'build/out.o'), 'utf8')).toBe('object code\n');
    expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  }, 180_000);
});
