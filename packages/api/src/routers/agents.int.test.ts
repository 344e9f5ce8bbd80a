import { describe, expect, it } from 'vitest';
import { createAgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

// tb.agent is the agent that already exists when the tests start.
const tb = apiTestbed({ agent: true });
const operator = () => tb.as('operator');

describe('agents', () => {
  it('creates a template with defaults and an audit row; lists and gets it', async () => {
    const api = await operator();
    const created = await api.agents.create({
      teamId: tb.fx.teamId,
      name: 'reviewer',
      endpointId: tb.agent.endpointId,
      systemPrompt: 'Review pull requests.',
      tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, idempotent: true }],
      slashCommands: [{ name: 'review', goalTemplate: 'Review {{pr}}', args: [{ name: 'pr', required: true }] }],
      sandbox: { driver: 'bwrap', memoryMb: 512 },
    });
    expect(created).toMatchObject({
      name: 'reviewer',
      description: '',
      endpoint: { id: tb.agent.endpointId, kind: 'faux', model: 'faux-1', deleted: false },
      busyPolicy: 'enqueue',
      maxConcurrentRuns: null,
      version: 1,
      sandbox: { driver: 'bwrap', memoryMb: 512 },
    });
    expect(created.tools[0]).toMatchObject({ name: 'read_file', idempotent: true });
    expect(created.slashCommands[0]).toMatchObject({ name: 'review', description: '', args: [{ name: 'pr', required: true, description: '' }] });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { targetId: created.id } });
    expect(audit).toMatchObject({ action: 'agent.created', actorId: tb.fx.members.operator.id });

    const viewer = await tb.as('viewer');
    expect((await viewer.agents.list({ teamId: tb.fx.teamId })).map((a) => a.name)).toContain('reviewer');
    expect(await viewer.agents.get({ teamId: tb.fx.teamId, agentId: created.id })).toEqual(created);
    expect((await viewer.agents.endpointOptions({ teamId: tb.fx.teamId })).map((e) => e.id)).toContain(tb.agent.endpointId);
  });

  it('refuses a taken name, another team’s endpoint, bad slash commands and reserved tool names', async () => {
    const api = await operator();
    await expect(api.agents.create({ teamId: tb.fx.teamId, name: tb.agent.agentName, endpointId: tb.agent.endpointId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `An agent named "${tb.agent.agentName}" already exists in this team`,
    });
    const foreign = await createAgentFixture(tb.db, tb.fx.otherTeamId);
    await expect(api.agents.create({ teamId: tb.fx.teamId, name: 'x', endpointId: foreign.endpointId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      api.agents.create({ teamId: tb.fx.teamId, name: 'y', endpointId: tb.agent.endpointId, slashCommands: [{ name: 'go', goalTemplate: 'Do {{thing}}' }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('template uses {{thing}}') });
    await expect(
      api.agents.create({ teamId: tb.fx.teamId, name: 'z', endpointId: tb.agent.endpointId, tools: [{ name: 'load_tools', description: '' }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('reserved tool names') });
    await expect(api.agents.create({ teamId: tb.fx.teamId, name: 'Not A Slug', endpointId: tb.agent.endpointId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('updates bump the version, audit what changed, and refuse a stale expectedVersion', async () => {
    const api = await operator();
    const agent = await api.agents.create({ teamId: tb.fx.teamId, name: 'editable', endpointId: tb.agent.endpointId });
    const v2 = await api.agents.update({
      teamId: tb.fx.teamId,
      agentId: agent.id,
      expectedVersion: 1,
      systemPrompt: 'New prompt',
      busyPolicy: 'reject',
      maxConcurrentRuns: 2,
    });
    expect(v2).toMatchObject({ version: 2, systemPrompt: 'New prompt', busyPolicy: 'reject', maxConcurrentRuns: 2 });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { targetId: agent.id, action: 'agent.updated' } });
    expect(audit.data).toEqual({ changed: ['systemPrompt', 'busyPolicy', 'maxConcurrentRuns'], version: 2 });
    await expect(api.agents.update({ teamId: tb.fx.teamId, agentId: agent.id, expectedVersion: 1, description: 'late' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    // Nothing to change: no new version, no audit row.
    expect(await api.agents.update({ teamId: tb.fx.teamId, agentId: agent.id })).toMatchObject({ version: 2 });
    expect(await tb.db.auditLog.count({ where: { targetId: agent.id } })).toBe(2);
  });

  it('an edit never changes a run that already exists (its config is a snapshot)', async () => {
    const api = await operator();
    const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'before the edit' });
    await api.agents.update({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, systemPrompt: 'Changed later' });
    const session = await tb.db.session.findFirstOrThrow({ where: { runId } });
    expect((session.config as { systemPrompt: string }).systemPrompt).toBe('You are a test agent.');
  });
});
