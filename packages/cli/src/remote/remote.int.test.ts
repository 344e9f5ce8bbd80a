import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '@looplane/testkit';
import { appendEvents, callerAs, issueToken, type AgentFixture, type ServedApi, type TeamFixture, type TestLive } from '@looplane/api/testing';
import { runCli } from '../cli';
import { Printer } from '../printer';
import { pointCliAt, startServedApi, type ServedApiFixture } from '../testing/served-api';

let db: TestDatabase;
let live: TestLive;
let server: ServedApi;
let fx: TeamFixture;
let agent: AgentFixture;
let token: string;

/** Runs the CLI in-process, capturing what it prints. `output()` reads it while it still runs. */
function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (err += t) });
  const done = runCli(argv, printer);
  return { done, output: () => ({ out, err }) };
}

/** Plays the worker: commits events (and, for run.finished, the run's final status), then publishes. */
async function worker(runId: string, events: Array<{ type: string; payload: object }>, status?: 'succeeded' | 'failed' | 'cancelled') {
  const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
  const numbers = await appendEvents(db.db, runId, run.mainSessionId!, events);
  if (status) await db.db.run.update({ where: { id: runId }, data: { status, finishedAt: new Date() } });
  await live.bus.publishRunEvent({ runId, sessionId: run.mainSessionId!, eventNo: numbers.at(-1)!, type: events.at(-1)!.type });
}

const say = (text: string) => ({ type: 'message.added', payload: { role: 'user', text } });
const finished = (status: string) => ({
  type: 'run.finished',
  payload: { status, ...(status === 'succeeded' ? { result: 'all done' } : { error: 'it broke' }) },
});

async function newRun(goal = 'tail me'): Promise<string> {
  const api = await callerAs({ db: db.db, dispatch: live.dispatch }, { bearer: token });
  return (await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal })).runId;
}

let served: ServedApiFixture;
let restoreEnv = () => {};
beforeAll(async () => {
  served = await startServedApi();
  ({ db, live, server, fx, agent } = served);
  token = (await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
  restoreEnv = pointCliAt(server.url, token);
});
afterAll(async () => {
  restoreEnv();
  await served?.close();
});

describe('looplane run', () => {
  it('starts a run of an agent by name, expanding a slash command', async () => {
    const { done, output } = cli('run', '--agent', agent.agentName, '--goal', '/triage the cart is empty', '--max-cost', '0.25');
    expect(await done).toBe(0);
    const runId = /Started run (\S+):/.exec(output().out)?.[1];
    expect(output().out).toContain(`${server.url}/t/`);
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId! }, include: { ledgers: true } });
    expect(run.goal).toBe('Triage this report: the cart is empty');
    expect(run.ledgers[0]!.limitCostMicros).toBe(250_000n);
  });

  it('starts a run of a swarm graph by name; a wrong graph name lists the graphs there are', async () => {
    const admin = await callerAs({ db: db.db, dispatch: live.dispatch }, { userId: fx.members.admin.id });
    const graph = await admin.graphs.create({
      teamId: fx.teamId,
      name: 'cli-graph',
      definition: { root: 'lead', nodes: [{ key: 'lead', agentId: agent.agentId }], edges: [] },
    });
    const { done, output } = cli('run', '--graph', 'cli-graph', '--goal', 'plan the release', '--json');
    expect(await done).toBe(0);
    const { runId } = JSON.parse(output().out.trim()) as { runId: string };
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.graphId).toBe(graph.id);
    expect(run.goal).toBe('plan the release');
    const wrong = cli('run', '--graph', 'nothing', '--goal', 'x');
    expect(await wrong.done).toBe(1);
    expect(wrong.output().err).toContain('no graph named "nothing"');
    expect(wrong.output().err).toContain('cli-graph');
    const both = cli('run', '--graph', 'cli-graph', '--agent', agent.agentName, '--goal', 'x');
    expect(await both.done).toBe(2);
  });

  it('names the agents there are when the name is wrong, and needs a token', async () => {
    const wrong = cli('run', '--agent', 'nobody', '--goal', 'x');
    expect(await wrong.done).toBe(1);
    expect(wrong.output().err).toContain(`no agent named "nobody"`);
    expect(wrong.output().err).toContain(agent.agentName);
    process.env.LOOPLANE_TOKEN = '';
    const tokenless = cli('run', '--agent', agent.agentName, '--goal', 'x');
    expect(await tokenless.done).toBe(2);
    expect(tokenless.output().err).toContain('LOOPLANE_TOKEN is not set');
    process.env.LOOPLANE_TOKEN = 'llp_wrong';
    const refused = cli('tail', 'whatever');
    expect(await refused.done).toBe(1);
    expect(refused.output().err).toContain('refused the token (401)');
    process.env.LOOPLANE_TOKEN = token;
  });

  it('--follow prints the events and exits 0 when the run succeeds', async () => {
    const { done, output } = cli('run', '--agent', agent.agentName, '--goal', 'follow me', '--follow');
    await expect.poll(() => output().out, { timeout: 15_000 }).toContain('Started run');
    const runId = /Started run (\S+):/.exec(output().out)![1]!;
    await worker(runId, [say('working on it')]);
    await worker(runId, [finished('succeeded')], 'succeeded');
    expect(await done).toBe(0);
    expect(output().out).toMatch(/#1 Message\s+working on it/);
    expect(output().out).toMatch(/#2 Run finished\s+succeeded: all done/);
    expect(output().out).toContain(`Run ${runId} succeeded.`);
  });
});

describe('looplane run with files', () => {
  it('--archive uploads the file first and starts the run from it; --repo and --from-session are sent as given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'looplane-cli-archive-'));
    try {
      writeFileSync(join(dir, 'README.md'), '# seeded\n');
      execFileSync('tar', ['-cf', join(dir, 'seed.tar'), '-C', dir, 'README.md']);
      const archived = cli('run', '--agent', agent.agentName, '--goal', 'from the archive', '--archive', join(dir, 'seed.tar'));
      expect(await archived.done).toBe(0);
      const uploadId = /Uploaded seed\.tar \(\d+ files, \d+ bytes\) as (\S+)/.exec(archived.output().out)?.[1];
      expect(uploadId, archived.output().out).toBeTruthy();
      const runId = /Started run (\S+):/.exec(archived.output().out)![1]!;
      expect((await db.db.run.findUniqueOrThrow({ where: { id: runId } })).workspace).toEqual({ archive: { uploadId } });
      expect((await db.db.upload.findUniqueOrThrow({ where: { id: uploadId! } })).usedAt).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const admin = await callerAs({ db: db.db, dispatch: live.dispatch }, { userId: fx.members.admin.id });
    await admin.policies.save({ teamId: fx.teamId, document: { version: 1, default: 'allow', workspace: { sources: ['https://git.example.test/**'] } } });
    const repo = cli(
      'run',
      '--agent',
      agent.agentName,
      '--goal',
      'from the repo',
      '--repo',
      'https://git.example.test/acme/app.git',
      '--ref',
      'main',
      '--depth',
      '2',
      '--json',
    );
    expect(await repo.done).toBe(0);
    const repoRun = (JSON.parse(repo.output().out.trim()) as { runId: string }).runId;
    expect((await db.db.run.findUniqueOrThrow({ where: { id: repoRun } })).workspace).toEqual({
      git: { url: 'https://git.example.test/acme/app.git', ref: 'main', depth: 2 },
    });

    const source = await db.db.run.findUniqueOrThrow({ where: { id: repoRun } });
    const forked = cli('run', '--agent', agent.agentName, '--goal', 'go on', '--from-session', source.mainSessionId!, '--json');
    expect(await forked.done).toBe(0);
    const forkedRun = (JSON.parse(forked.output().out.trim()) as { runId: string }).runId;
    expect((await db.db.run.findUniqueOrThrow({ where: { id: forkedRun } })).workspace).toMatchObject({ session: { sessionId: source.mainSessionId } });
  });

  it('refuses two sources before calling the server, and says what the server refused', async () => {
    const runs = await db.db.run.count();
    const both = cli('run', '--agent', agent.agentName, '--goal', 'x', '--repo', 'https://git.example.test/a.git', '--from-session', 'cm1abc');
    expect(await both.done).toBe(2);
    expect(both.output().err).toContain('give one of --repo, --archive or --from-session, not --repo and --from-session');
    const missing = cli('run', '--agent', agent.agentName, '--goal', 'x', '--archive', '/no/such/seed.tar');
    expect(await missing.done).toBe(1);
    expect(missing.output().err).toContain('cannot read /no/such/seed.tar: no such file');
    const refused = cli('run', '--agent', agent.agentName, '--goal', 'x', '--repo', 'https://elsewhere.example.test/a.git');
    expect(await refused.done).toBe(1);
    expect(refused.output().err).toContain('The team policy refuses this repository');
    const password = cli('run', '--agent', agent.agentName, '--goal', 'x', '--repo', 'https://me:pw@git.example.test/a.git');
    expect(await password.done).toBe(1);
    expect(password.output().err).toContain('must not hold a password or token');
    expect(await db.db.run.count()).toBe(runs);
  });
});

describe('looplane patch', () => {
  it('prints or writes the series, and says why there is none', async () => {
    const runId = await newRun('patch me');
    const { mainSessionId } = await db.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } });
    const unseeded = cli('patch', mainSessionId!);
    expect(await unseeded.done).toBe(1);
    expect(unseeded.output().err).toMatch(/did not start from files .*give base/);

    await appendEvents(db.db, runId, mainSessionId!, [
      { type: 'workspace.seeded', payload: { source: 'git', commit: 'd'.repeat(40), files: 1, bytes: 1, url: 'https://git.example.test/a.git' } },
    ]);
    const empty = cli('patch', mainSessionId!);
    expect(await empty.done).toBe(0);
    expect(empty.output()).toEqual({ out: '', err: 'No changes: the patch is empty.\n' });
    const dir = mkdtempSync(join(tmpdir(), 'looplane-cli-patch-'));
    try {
      const written = cli('patch', mainSessionId!, '--base', '1', '-o', join(dir, 'out.patch'));
      expect(await written.done).toBe(0);
      expect(written.output().out).toBe(`Wrote 0 patch(es), 0 bytes, to ${join(dir, 'out.patch')}\n`);
      expect(readFileSync(join(dir, 'out.patch'), 'utf8')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A call changed files after the seed: this server keeps no workspace store to read them from.
    await appendEvents(db.db, runId, mainSessionId!, [
      { type: 'tool.finished', payload: { callId: 'c1', ok: true, output: 'written', truncated: false, commit: 'e'.repeat(40) } },
    ]);
    const unreadable = cli('patch', mainSessionId!);
    expect(await unreadable.done).toBe(1);
    expect(unreadable.output().err).toContain('no workspace store configured');

    const bad = cli('patch', mainSessionId!, '--base', 'zero');
    expect(await bad.done).toBe(2);
    const foreign = cli('patch', 'cmnosuchsession000000000');
    expect(await foreign.done).toBe(1);
    expect(foreign.output().err).toContain('No such session in this team');
  });
});

describe('looplane tail', () => {
  it('resumes after a dropped connection with nothing skipped or repeated, and exits 1 for a failed run', async () => {
    const runId = await newRun();
    await worker(runId, [say('one'), say('two'), say('three')]);
    const { done, output } = cli('tail', runId);
    await expect.poll(() => output().out, { timeout: 15_000 }).toContain('#3 Message');
    server.dropConnections();
    await worker(runId, [say('four'), say('five')]);
    await worker(runId, [say('six'), finished('failed')], 'failed');
    expect(await done).toBe(1);
    const numbers = [...output().out.matchAll(/ #(\d+) /g)].map((m) => Number(m[1]));
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(output().out).toContain(`Run ${runId} failed.`);
  });

  it('a finished run prints its backlog and exits at once; --json prints raw events', async () => {
    const runId = await newRun();
    await worker(runId, [say('hello'), { type: 'model.delta', payload: { requestId: 'r', index: 0, text: 'x' } }, finished('succeeded')], 'succeeded');
    const { done, output } = cli('tail', runId, '--json');
    expect(await done).toBe(0);
    const lines = output()
      .out.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { eventNo: number; type: string });
    expect(lines.map((e) => [e.eventNo, e.type])).toEqual([
      [1, 'message.added'],
      [2, 'model.delta'],
      [3, 'run.finished'],
    ]);
  });

  it('prints the id of an approval the run waits on, so looplane approve can follow', async () => {
    const runId = await newRun();
    await worker(runId, [say('cleaning up')]);
    const { done, output } = cli('tail', runId);
    await expect.poll(() => output().out, { timeout: 15_000 }).toContain('#1 Message');
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    const requested = {
      type: 'approval.requested',
      payload: { kind: 'tool', tool: 'shell', callId: 'call-1', args: { command: 'rm -rf build' }, role: 'approver', risk: 'high', reason: 'destructive' },
    };
    // As the worker does: the event first, then its inbox row (keyed by the event's seq).
    await worker(runId, [requested]);
    const approval = await db.db.approval.create({
      data: { teamId: fx.teamId, runId, sessionId: run.mainSessionId!, requestSeq: 2, toolCallId: 'call-1', tool: 'shell' },
    });
    await expect.poll(() => output().out, { timeout: 15_000 }).toContain(`looplane approve ${approval.id}`);
    await worker(runId, [finished('succeeded')], 'succeeded');
    expect(await done).toBe(0);
    expect(output().out).toMatch(/#2 Approval needed\s+shell needs a decision by an approver: destructive\n {4}approval \S+: looplane approve/);
  });

  it('a run of another team, or none, is a 404 and exit code 1', async () => {
    const { done, output } = cli('tail', 'cnosuchrun000');
    expect(await done).toBe(1);
    expect(output().err).toContain('No such run');
  });
});
