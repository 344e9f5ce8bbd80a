import { randomBytes } from 'node:crypto';
import { SecretBox } from '@looplane/db';
import { describe, expect, it } from 'vitest';
import { createAgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { triggerName } from './triggers.fixtures';

/**
 * The `triggers` router: secrets shown once and sealed at rest, templates checked when saved,
 * targets only of the caller's team, every change audited, and the roles that may read and write.
 */
const box = new SecretBox(randomBytes(32).toString('base64'));
const tb = apiTestbed({ agent: true, deps: { secretBox: box } });

const startRun = (goalTemplate = 'Quote for {{payload.mail.subject}}') => ({ type: 'start_run' as const, agentId: tb.agent.agentId, goalTemplate });
const audits = (action: string, triggerId: string) => tb.db.auditLog.findMany({ where: { action, targetId: triggerId } });

describe('triggers', () => {
  it('create shows the secret once and seals it; reads never show it; every change is audited', async () => {
    const admin = await tb.as('admin');
    const { trigger, secret } = await admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: startRun() });
    expect(trigger).toMatchObject({ auth: 'standard_webhooks', enabled: true, rateLimitPerMinute: 600, path: `/api/hooks/${trigger.id}` });
    expect(trigger.target).toEqual({
      type: 'start_run',
      agentId: tb.agent.agentId,
      graphId: null,
      goalTemplate: 'Quote for {{payload.mail.subject}}',
      budget: {},
      workspace: null,
    });
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const row = await tb.db.trigger.findUniqueOrThrow({ where: { id: trigger.id } });
    expect(row.secretCiphertext).not.toContain(secret.slice(6, 20));
    expect(box.open(row.secretCiphertext)).toBe(secret);

    const viewer = await tb.as('viewer');
    const listed = JSON.stringify([
      await viewer.triggers.list({ teamId: tb.fx.teamId }),
      await viewer.triggers.get({ teamId: tb.fx.teamId, triggerId: trigger.id }),
    ]);
    expect(listed).toContain(trigger.id);
    expect(listed).not.toContain(secret);
    expect(listed).not.toContain('secretCiphertext');

    const rotated = await admin.triggers.rotateSecret({ teamId: tb.fx.teamId, triggerId: trigger.id });
    expect(rotated.secret).not.toBe(secret);
    expect(box.open((await tb.db.trigger.findUniqueOrThrow({ where: { id: trigger.id } })).secretCiphertext)).toBe(rotated.secret);
    const updated = await admin.triggers.update({
      teamId: tb.fx.teamId,
      triggerId: trigger.id,
      enabled: false,
      rateLimitPerMinute: 5,
      budget: { tokens: 1000 },
    });
    expect(updated).toMatchObject({ enabled: false, rateLimitPerMinute: 5, target: { budget: { tokens: 1000, onExceed: 'wait' } } });
    await admin.triggers.delete({ teamId: tb.fx.teamId, triggerId: trigger.id });
    await expect(viewer.triggers.get({ teamId: tb.fx.teamId, triggerId: trigger.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    for (const action of ['trigger.created', 'trigger.secret_rotated', 'trigger.updated', 'trigger.deleted']) {
      const rows = await audits(action, trigger.id);
      expect(rows, action).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actorType: 'user', actorId: tb.fx.members.admin.id });
      expect(JSON.stringify(rows[0]!.data)).not.toContain(secret);
    }
  });

  it('bearer triggers get a bearer secret; a message_run trigger names a run of the team', async () => {
    const admin = await tb.as('admin');
    const { runId } = await admin.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'Watch' });
    const { trigger, secret } = await admin.triggers.create({
      teamId: tb.fx.teamId,
      name: triggerName(),
      target: { type: 'message_run', runId, messageTemplate: 'New mail: {{payload.subject}}' },
      auth: 'bearer',
    });
    expect(secret).toMatch(/^lltr_[A-Za-z0-9_-]{43}$/);
    expect(trigger.target).toEqual({ type: 'message_run', runId, messageTemplate: 'New mail: {{payload.subject}}' });
    const changed = await admin.triggers.update({ teamId: tb.fx.teamId, triggerId: trigger.id, messageTemplate: 'Mail {{payload}}' });
    expect(changed.target).toMatchObject({ messageTemplate: 'Mail {{payload}}' });
    await expect(admin.triggers.update({ teamId: tb.fx.teamId, triggerId: trigger.id, goalTemplate: 'x' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^goalTemplate: this trigger sends messages/),
    });
  });

  it('bad templates, names taken, and nothing to change are refused with what was wrong, and write nothing', async () => {
    const admin = await tb.as('admin');
    const before = await tb.db.trigger.count();
    await expect(admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: startRun('At {{scheduledAt}}') })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('{{scheduledAt}} is not a payload path'),
    });
    await expect(admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: startRun('Open {{payload.a') })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: { ...startRun(), graphId: tb.agent.agentId } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('not both') });
    expect(await tb.db.trigger.count()).toBe(before);

    const { trigger } = await admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: startRun() });
    await expect(admin.triggers.create({ teamId: tb.fx.teamId, name: trigger.name, target: startRun() })).rejects.toMatchObject({ code: 'CONFLICT' });
    const second = await admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: startRun() });
    await expect(admin.triggers.update({ teamId: tb.fx.teamId, triggerId: second.trigger.id, name: trigger.name })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(admin.triggers.update({ teamId: tb.fx.teamId, triggerId: trigger.id })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(admin.triggers.update({ teamId: tb.fx.teamId, triggerId: trigger.id, messageTemplate: 'x' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(admin.triggers.deliveries({ teamId: tb.fx.teamId, triggerId: trigger.id, cursor: 'cnosuchdelivery000000000' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await audits('trigger.updated', trigger.id)).toHaveLength(0);
  });

  it('another team’s agent, run or trigger is NOT_FOUND; a viewer reads but cannot create; an operator cannot either', async () => {
    const foreignAgent = await createAgentFixture(tb.db, tb.fx.otherTeamId);
    const outsider = await tb.asUser(tb.fx.outsider.id);
    const { runId: foreignRun } = await outsider.runs.create({ teamId: tb.fx.otherTeamId, agentId: foreignAgent.agentId, goal: 'theirs' });
    const foreign = await outsider.triggers.create({
      teamId: tb.fx.otherTeamId,
      name: triggerName(),
      target: { type: 'start_run', agentId: foreignAgent.agentId, goalTemplate: 'Theirs' },
    });

    const admin = await tb.as('admin');
    const before = await tb.db.trigger.count();
    await expect(
      admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: { type: 'start_run', agentId: foreignAgent.agentId, goalTemplate: 'x' } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such agent in this team' });
    await expect(
      admin.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: { type: 'message_run', runId: foreignRun } }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No such run in this team',
    });
    await expect(admin.triggers.get({ teamId: tb.fx.teamId, triggerId: foreign.trigger.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(admin.triggers.get({ teamId: tb.fx.otherTeamId, triggerId: foreign.trigger.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await admin.triggers.list({ teamId: tb.fx.teamId })).map((t) => t.id)).not.toContain(foreign.trigger.id);

    for (const role of ['viewer', 'operator', 'approver'] as const) {
      const caller = await tb.as(role);
      await expect(caller.triggers.create({ teamId: tb.fx.teamId, name: triggerName(), target: startRun() })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await tb.db.trigger.count()).toBe(before);
    expect((await tb.db.trigger.findUniqueOrThrow({ where: { id: foreign.trigger.id } })).enabled).toBe(true);
  });
});
