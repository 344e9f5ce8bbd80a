import { chmodSync, mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { SecretBox, loadSessionEvents } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import { LOAD_SKILL, type EngineEvent, type ModelRequest, type ScriptTurn } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { createBareRepository, startGitHttpServer, type GitHttpServer } from '@looplane/testkit/git-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyEgressSource } from '../sandbox/test-egress-source';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';

/**
 * Skills through the real API, worker, bwrap sandbox and faux model: what the model is offered
 * (captured as the faux model receives it), loading once, files written like a call's, replays
 * and forks reading the skill from the log, a seeded repository's `.looplane/skills`.
 */
const KEY = randomBytes(32).toString('base64');
const TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'looplane-skills-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, KEY);
/** Every request the faux model received, in order. */
const requests: ModelRequest[] = [];
const s = setUpRuntimeSuite('skills', {
  leaseTtlMs: 10_000,
  encryptionKey: KEY,
  sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress },
  createModel: (endpoint, apiKey) => {
    const model = createModelForEndpoint(endpoint, apiKey);
    return {
      complete: (request, options) => {
        requests.push(request);
        return model.complete(request, options);
      },
    };
  },
});
const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) });
const operator = () => callerAs(api(), { userId: fx.members.operator.id });
const log = (sessionId: string) => loadSessionEvents(s.worker.pool, sessionId);
const loads = (events: EngineEvent[]) => events.filter((e): e is EngineEvent<'skill.loaded'> => e.type === 'skill.loaded');
const textOf = (request: ModelRequest) => request.messages.map((m) => m.content).join('\n');
const waitForSession = (sessionId: string) =>
  waitFor(
    async () => {
      const row = await s.t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
      return row.status === 'succeeded' || row.status === 'failed' ? row : undefined;
    },
    60_000,
    `session ${sessionId} to finish`,
  );

let server: GitHttpServer;
let fx: TeamFixture;

beforeAll(async () => {
  const repos = join(root, 'repos');
  await createBareRepository(repos, 'with-skills', {
    'README.md': '# tools\n',
    '.looplane/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release of this repository.\n---\n# Releasing\nBump, tag, push.\n',
    '.looplane/skills/release/checklist.md': '- [ ] changelog\n',
    '.looplane/skills/broken/SKILL.md': 'no front matter here\n',
  });
  server = await startGitHttpServer({ root: repos, users: { 'x-access-token': TOKEN } });
  fx = await createTeamFixture(s.t.db);
  const admin = await callerAs(api(), { userId: fx.members.admin.id });
  await admin.policies.save({ teamId: fx.teamId, document: { version: 1, default: 'allow', workspace: { sources: ['http://127.0.0.1:*/**'] } } });
  await s.t.db.teamSecret.create({
    data: { teamId: fx.teamId, name: 'REPO_TOKEN', kind: 'token', ciphertext: new SecretBox(KEY).seal(TOKEN), last4: TOKEN.slice(-4) },
  });
});

afterAll(async () => {
  await server?.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/** An agent on a faux endpoint playing `script`, allowed `skills`. */
async function agentWith(script: ScriptTurn[], skills: string[]): Promise<string> {
  const { endpointId } = await createTestAgent(s.t.db, fx.teamId, { script });
  const agent = await (await operator()).agents.create({ teamId: fx.teamId, name: `skilled-${randomBytes(3).toString('hex')}`, endpointId, skills });
  return agent.id;
}

describe('skills (real API, worker, bwrap and faux model)', () => {
  const tag = randomBytes(3).toString('hex');
  const names = Array.from({ length: 30 }, (_, i) => `s${tag}-${i}`);
  const instructions = (name: string) => `INSTRUCTIONS OF ${name}: quote in EUR, cite the catalogue page.`;
  const wanted = names[7]!;
  let runId: string;
  let sessionId: string;

  it('an agent with 30 skills is offered names and one-liners only; load_skill adds the instructions once and writes the files', async () => {
    const caller = await operator();
    for (const name of names) {
      await caller.skills.create({
        teamId: fx.teamId,
        name,
        description: `One line about ${name}.`,
        instructions: instructions(name),
        ...(name === wanted ? { files: [{ path: 'skills/quotes/rules.md', content: 'Round prices up to the cent.\n' }] } : {}),
      });
    }
    const agentId = await agentWith(
      [{ calls: [{ tool: LOAD_SKILL, args: { name: wanted } }] }, { calls: [{ tool: LOAD_SKILL, args: { name: wanted } }] }, { finish: 'quoted' }],
      names,
    );
    const before = requests.length;
    ({ runId } = await caller.runs.create({ teamId: fx.teamId, agentId, goal: `Quote the bolts ${tag}` }));
    const run = await waitForRun(s.t.db, runId, undefined, 60_000);
    expect(run.status, run.error ?? '').toBe('succeeded');
    sessionId = run.mainSessionId!;

    const mine = requests.slice(before).filter((r) => textOf(r).includes(`Quote the bolts ${tag}`));
    expect(mine).toHaveLength(3);
    const first = mine[0]!;
    for (const name of names) expect(textOf(first)).toContain(`- ${name}: One line about ${name}.`);
    expect(textOf(first)).not.toContain('INSTRUCTIONS OF');
    expect(first.tools.map((t) => t.name)).toContain(LOAD_SKILL);

    const events = await log(sessionId);
    expect(loads(events).map((e) => e.payload)).toEqual([
      expect.objectContaining({ name: wanted, source: 'team', version: 1, instructions: instructions(wanted), files: ['skills/quotes/rules.md'] }),
    ]);
    expect(loads(events)[0]!.payload.commit).toMatch(/^[0-9a-f]{40,64}$/);
    const last = mine[2]!;
    expect(last.messages.filter((m) => m.content.includes(instructions(wanted)))).toHaveLength(1);
    expect(last.messages.some((m) => m.role === 'tool' && m.content.includes('already loaded'))).toBe(true);
    // The file is in the session's workspace, written (and committed) as a call's write would be.
    expect(await readFile(join(root, 'workspaces', sessionId, 'work', 'skills/quotes/rules.md'), 'utf8')).toBe('Round prices up to the cent.\n');
  });

  it('a replay serves the loaded skill from the log, even once the library no longer has it', async () => {
    const caller = await operator();
    const skill = (await caller.skills.list({ teamId: fx.teamId })).find((x) => x.name === wanted)!;
    await caller.skills.archive({ teamId: fx.teamId, skillId: skill.id });
    const replay = await caller.sessions.replay({ teamId: fx.teamId, sessionId, mode: 'stop' });
    const row = await waitForSession(replay.sessionId);
    expect(row.status).toBe('succeeded');
    const served = loads(await log(replay.sessionId)).filter((e) => e.payload.replayed === true);
    expect(served).toHaveLength(1);
    expect(served[0]!.payload).toMatchObject({ name: wanted, instructions: instructions(wanted) });
    await caller.skills.archive({ teamId: fx.teamId, skillId: skill.id, archived: false });
  });

  it('a fork after the load keeps the skill: its model sees the instructions and a second load is a no-op', async () => {
    const caller = await operator();
    const at = loads(await log(sessionId))[0]!.seq;
    const fork = await caller.sessions.fork({ teamId: fx.teamId, sessionId, atEvent: at, message: `Keep going ${tag}.` });
    const row = await waitForSession(fork.sessionId);
    expect(row.status).toBe('succeeded');
    const own = (await log(fork.sessionId)).filter((e) => e.seq > at);
    expect(loads(own)).toEqual([]);
    const forked = requests.filter((r) => textOf(r).includes(`Keep going ${tag}.`));
    expect(forked.length).toBeGreaterThan(0);
    for (const request of forked) expect(request.messages.filter((m) => m.content.includes(instructions(wanted)))).toHaveLength(1);
  });

  it("a repository's .looplane/skills are offered to a run seeded from it, and load from the log", async () => {
    const agentId = await agentWith([{ calls: [{ tool: LOAD_SKILL, args: { name: 'release' } }] }, { finish: 'released' }], []);
    const before = requests.length;
    const { runId: seeded } = await (await operator()).runs.create({
      teamId: fx.teamId,
      agentId,
      goal: `Release it ${tag}`,
      workspace: { git: { url: server.url('with-skills'), secretRef: 'REPO_TOKEN' } },
    });
    const run = await waitForRun(s.t.db, seeded, undefined, 60_000);
    expect(run.status, run.error ?? '').toBe('succeeded');
    const mine = requests.slice(before).filter((r) => textOf(r).includes(`Release it ${tag}`));
    expect(textOf(mine[0]!)).toContain('- release: Cut a release of this repository.');
    expect(textOf(mine[0]!)).not.toContain('Bump, tag, push.');
    expect(textOf(mine[0]!)).not.toContain('broken');
    expect(mine[0]!.tools.map((t) => t.name)).toContain(LOAD_SKILL);
    const events = await log(run.mainSessionId!);
    expect(loads(events).map((e) => e.payload)).toEqual([
      expect.objectContaining({ name: 'release', source: 'repository', files: ['.looplane/skills/release/checklist.md'] }),
    ]);
    expect(textOf(mine[1]!)).toContain('Bump, tag, push.');
    const checklist = join(root, 'workspaces', run.mainSessionId!, 'work', '.looplane/skills/release/checklist.md');
    expect(await readFile(checklist, 'utf8')).toBe('- [ ] changelog\n');
  });
});
