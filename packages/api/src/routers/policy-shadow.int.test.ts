import { describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed();
const STRICT = { version: 1, name: 'strict', default: 'deny', rules: [] };
const LENIENT = { version: 1, name: 'lenient', default: 'allow', rules: [] };
const auditOf = (action: string) => tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, action }, orderBy: { seq: 'asc' } });

/** A disagreement row as the worker writes it (apps/worker ports/shadow-disagreements). */
async function disagreement(shadowId: string, i: number) {
  return tb.db.policyShadowDisagreement.create({
    data: {
      teamId: tb.fx.teamId,
      shadowId,
      callKey: `${shadowId}:${i}`,
      runId: `run-${i}`,
      sessionId: `ses-${i}`,
      callId: `call-${i}`,
      seq: i,
      tool: 'shell',
      activeVersion: 2,
      activeOutcome: 'allow',
      activeRuleId: 'default',
      shadowVersion: 1,
      shadowOutcome: 'deny',
      shadowRuleId: 'default',
      createdAt: new Date(Date.UTC(2026, 11, 1, 0, 0, i)),
    },
  });
}

describe('policies: the shadow version', () => {
  it('set, list its disagreements page by page, clear, set again, promote; every change an audit row', async () => {
    const admin = await tb.as('admin');
    const viewer = await tb.as('viewer');
    const teamId = tb.fx.teamId;
    // Nothing to shadow yet: version 0 is active, others do not exist; clearing nothing changes nothing.
    await expect(admin.policies.setShadow({ teamId, version: 0 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/active version/),
    });
    await expect(admin.policies.setShadow({ teamId, version: 4 })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/no version 4/) });
    expect(await admin.policies.setShadow({ teamId, version: null })).toEqual({ version: null, changed: false });
    await expect(admin.policies.promoteShadow({ teamId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/No shadow version is set/),
    });
    expect(await viewer.policies.shadowDisagreements({ teamId })).toEqual({ shadow: null, count: 0, items: [], nextCursor: null });

    await admin.policies.save({ teamId, document: STRICT, comment: 'v1' });
    await admin.policies.save({ teamId, document: LENIENT, comment: 'v2' });
    await expect(admin.policies.setShadow({ teamId, version: 2 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await admin.policies.setShadow({ teamId, version: 1 })).toEqual({ version: 1, changed: true });
    expect(await admin.policies.setShadow({ teamId, version: 1 })).toEqual({ version: 1, changed: false });
    const set = await auditOf('policy.shadow_set');
    expect(set).toHaveLength(1);
    expect(set[0]!.data).toMatchObject({ version: 1, previousShadowVersion: null, activeVersion: 2 });
    const { shadowId } = await tb.db.policy.findFirstOrThrow({ where: { teamId } });

    // Rows of this shadow, newest first, 2 at a time; a row of an earlier shadow is not counted.
    for (let i = 1; i <= 5; i++) await disagreement(shadowId!, i);
    await disagreement('an-earlier-shadow', 9);
    const first = await viewer.policies.shadowDisagreements({ teamId, limit: 2 });
    expect(first.shadow).toMatchObject({ version: 1, activeVersion: 2, setBy: tb.fx.members.admin.email });
    expect(first.count).toBe(5);
    expect(first.items.map((d) => d.callId)).toEqual(['call-5', 'call-4']);
    expect(first.items[0]).toMatchObject({
      runId: 'run-5',
      sessionId: 'ses-5',
      seq: 5,
      tool: 'shell',
      active: { version: 2, outcome: 'allow', ruleId: 'default' },
      shadow: { version: 1, outcome: 'deny', ruleId: 'default' },
    });
    const second = await viewer.policies.shadowDisagreements({ teamId, limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((d) => d.callId)).toEqual(['call-3', 'call-2']);
    const last = await viewer.policies.shadowDisagreements({ teamId, limit: 2, cursor: second.nextCursor! });
    expect([last.items.map((d) => d.callId), last.nextCursor]).toEqual([['call-1'], null]);
    await expect(viewer.policies.shadowDisagreements({ teamId, cursor: 'not-a-row' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/cursor/),
    });

    // Cleared: nothing shown; set again: a new shadow id, counting from zero.
    expect(await admin.policies.setShadow({ teamId, version: null })).toEqual({ version: null, changed: true });
    expect((await auditOf('policy.shadow_cleared'))[0]!.data).toMatchObject({ previousShadowVersion: 1, shadowId });
    expect((await viewer.policies.shadowDisagreements({ teamId })).count).toBe(0);
    await admin.policies.setShadow({ teamId, version: 1 });
    const again = await tb.db.policy.findFirstOrThrow({ where: { teamId } });
    expect(again.shadowId).not.toBe(shadowId);
    expect(await viewer.policies.shadowDisagreements({ teamId })).toMatchObject({ shadow: { version: 1 }, count: 0, items: [] });

    // Promote: version 1 active, no shadow, an audit row with what changed.
    const promoted = await admin.policies.promoteShadow({ teamId });
    expect(promoted).toMatchObject({ version: 1, previousVersion: 2 });
    expect(await admin.policies.get({ teamId })).toMatchObject({ version: 1, document: { name: 'strict' } });
    expect(await tb.db.policy.findFirstOrThrow({ where: { teamId } })).toMatchObject({ activeVersion: 1, shadowVersion: null, shadowId: null });
    expect((await auditOf('policy.shadow_promoted'))[0]!.data).toMatchObject({
      version: 1,
      previousVersion: 2,
      shadowId: again.shadowId,
      sectionsChanged: expect.arrayContaining(['default']),
    });
    expect((await admin.policies.versions({ teamId })).find((v) => v.active)?.version).toBe(1);
    // The built-in default may be a shadow too.
    expect(await admin.policies.setShadow({ teamId, version: 0 })).toEqual({ version: 0, changed: true });
  });

  it('another team’s versions are not this team’s', async () => {
    const outsider = await tb.asUser(tb.fx.outsider.id);
    // The outsider's own team has no saved version 1, whatever this team has.
    await expect(outsider.policies.setShadow({ teamId: tb.fx.otherTeamId, version: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await outsider.policies.shadowDisagreements({ teamId: tb.fx.otherTeamId })).toMatchObject({ shadow: null, count: 0 });
  });
});
