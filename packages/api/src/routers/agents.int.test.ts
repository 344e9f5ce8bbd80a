import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import type { ApiDeps } from '../context';
import { callerAs, createAgentFixture, createTeamFixture, type AgentFixture, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
let existing: AgentFixture;

const operator = () => callerAs(deps, { userId: fx.members.operator.id });

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
  existing = await createAgentFixture(db.db, fx.teamId);
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('agents', () => {
  it('creates a template with defaults and an audit row; lists and gets it', async () => {
    const api = await operator();
    const created = await api.agents.create({
      teamId: fx.teamId,
      name: 'reviewer',
      endpointId: existing.endpointId,
      systemPrompt: 'Review pull requests.',
      tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, idempotent: true }],
      slashCommands: [{ name: 'review', goalTemplate: 'Review {{pr}}', args: [{ name: 'pr', required: true }] }],
      sandbox: { driver: 'bwrap', memoryMb: 512 },
    });
    expect(created).toMatchObject({
      name: 'reviewer',
      description: '',
      endpoint: { id: existing.endpointId, kind: 'faux', model: 'faux-1', deleted: false },
      busyPolicy: 'enqueue',
      maxConcurrentRuns: null,
      version: 1,
      sandbox: { driver: 'bwrap', memoryMb: 512 },
    });
    expect(created.tools[0]).toMatchObject({ name: 'read_file', idempotent: true });
    expect(created.slashCommands[0]).toMatchObject({ name: 'review', description: '', args: [{ name: 'pr', required: true, description: '' }] });
    const audit = await db.db.auditLog.findFirstOrThrow({ where: { targetId: created.id } });
    expect(audit).toMatchObject({ action: 'agent.created', actorId: fx.members.operator.id });

    const viewer = await callerAs(deps, { userId: fx.members.viewer.id });
    expect((await viewer.agents.list({ teamId: fx.teamId })).map((a) => a.name)).toContain('reviewer');
    expect(await viewer.agents.get({ teamId: fx.teamId, agentId: created.id })).toEqual(created);
    expect((await viewer.agents.endpointOptions({ teamId: fx.teamId })).map((e) => e.id)).toContain(existing.endpointId);
  });

  it('refuses a taken name, another team’s endpoint, bad slash commands and reserved tool names', async () => {
    const api = await operator();
    await expect(api.agents.create({ teamId: fx.teamId, name: existing.agentName, endpointId: existing.endpointId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `An agent named "${existing.agentName}" already exists in this team`,
    });
    const foreign = await createAgentFixture(db.db, fx.otherTeamId);
    await expect(api.agents.create({ teamId: fx.teamId, name: 'x', endpointId: foreign.endpointId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      api.agents.create({ teamId: fx.teamId, name: 'y', endpointId: existing.endpointId, slashCommands: [{ name: 'go', goalTemplate: 'Do {{thing}}' }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('template uses {{thing}}') });
    await expect(
      api.agents.create({ teamId: fx.teamId, name: 'z', endpointId: existing.endpointId, tools: [{ name: 'load_tools', description: '' }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('reserved tool names') });
    await expect(api.agents.create({ teamId: fx.teamId, name: 'Not A Slug', endpointId: existing.endpointId })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('updates bump the version, audit what changed, and refuse a stale expectedVersion', async () => {
    const api = await operator();
    const agent = await api.agents.create({ teamId: fx.teamId, name: 'editable', endpointId: existing.endpointId });
    const v2 = await api.agents.update({ teamId: fx.teamId, agentId: agent.id, expectedVersion: 1, systemPrompt: 'New prompt', busyPolicy: 'reject', maxConcurrentRuns: 2 });
    expect(v2).toMatchObject({ version: 2, systemPrompt: 'New prompt', busyPolicy: 'reject', maxConcurrentRuns: 2 });
    const audit = await db.db.auditLog.findFirstOrThrow({ where: { targetId: agent.id, action: 'agent.updated' } });
    expect(audit.data).toEqual({ changed: ['systemPrompt', 'busyPolicy', 'maxConcurrentRuns'], version: 2 });
    await expect(api.agents.update({ teamId: fx.teamId, agentId: agent.id, expectedVersion: 1, description: 'late' })).rejects.toMatchObject({ code: 'CONFLICT' });
    // Nothing to change: no new version, no audit row.
    expect(await api.agents.update({ teamId: fx.teamId, agentId: agent.id })).toMatchObject({ version: 2 });
    expect(await db.db.auditLog.count({ where: { targetId: agent.id } })).toBe(2);
  });

  it('an edit never changes a run that already exists (its config is a snapshot)', async () => {
    const api = await operator();
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: existing.agentId, goal: 'before the edit' });
    await api.agents.update({ teamId: fx.teamId, agentId: existing.agentId, systemPrompt: 'Changed later' });
    const session = await db.db.session.findFirstOrThrow({ where: { runId } });
    expect((session.config as { systemPrompt: string }).systemPrompt).toBe('You are a test agent.');
  });
});
