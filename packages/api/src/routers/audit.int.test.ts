import { beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditExport } from '@looplane/db';
import { callerAs, issueToken } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed();
const admin = () => tb.as('admin');

beforeAll(async () => {
  // Real actions through the API fill the chain: three policy saves, one endpoint, one token.
  const api = await admin();
  for (const name of ['one', 'two', 'three']) {
    await api.policies.save({ teamId: tb.fx.teamId, document: { version: 1, name, default: 'deny', rules: [] } });
  }
  await api.endpoints.create({ teamId: tb.fx.teamId, name: 'offline', kind: 'faux', model: 'faux-1' });
  const token = await issueToken(tb.db, tb.fx.teamId, tb.fx.members.admin.id, 'admin');
  await (await callerAs(tb.deps, { bearer: token.secret })).policies.save({
    teamId: tb.fx.teamId,
    document: { version: 1, name: 'four', default: 'deny', rules: [] },
  });
});

describe('audit.list', () => {
  it('lists newest first with actors resolved, and pages by seq without gaps or repeats', async () => {
    const api = await admin();
    const first = await api.audit.list({ teamId: tb.fx.teamId, limit: 2 });
    expect(first.rows.map((r) => r.action)).toEqual(['policy.saved', 'endpoint.created']);
    expect(first.rows[0]).toMatchObject({
      actorType: 'token',
      actorLabel: expect.stringMatching(/^token ".+" of .+@example\.test$/),
      data: expect.objectContaining({ onBehalfOf: tb.fx.members.admin.id }),
    });
    expect(first.rows[1]).toMatchObject({ actorType: 'user', actorId: tb.fx.members.admin.id, actorLabel: tb.fx.members.admin.email, ip: '127.0.0.1' });
    const seen = [...first.rows];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await api.audit.list({ teamId: tb.fx.teamId, limit: 2, cursor });
      seen.push(...page.rows);
      cursor = page.nextCursor;
    }
    expect(seen.map((r) => r.seq)).toEqual([5, 4, 3, 2, 1]);
  });

  it('filters by action (exact or prefix), actor, target and time', async () => {
    const api = await admin();
    const saved = await api.audit.list({ teamId: tb.fx.teamId, action: 'policy.saved' });
    expect(saved.rows).toHaveLength(4);
    expect((await api.audit.list({ teamId: tb.fx.teamId, action: 'endpoint.' })).rows.map((r) => r.action)).toEqual(['endpoint.created']);
    expect((await api.audit.list({ teamId: tb.fx.teamId, actorId: tb.fx.members.admin.id })).rows).toHaveLength(4);
    expect((await api.audit.list({ teamId: tb.fx.teamId, actorType: 'token' })).rows).toHaveLength(1);
    expect((await api.audit.list({ teamId: tb.fx.teamId, targetType: 'endpoint' })).rows).toHaveLength(1);
    const future = new Date(Date.now() + 60_000);
    expect((await api.audit.list({ teamId: tb.fx.teamId, from: future })).rows).toEqual([]);
    expect((await api.audit.list({ teamId: tb.fx.teamId, to: future })).rows).toHaveLength(5);
    await expect(api.audit.list({ teamId: tb.fx.teamId, from: future, to: new Date(0) })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('never shows another team’s rows', async () => {
    const outsider = await tb.asUser(tb.fx.outsider.id);
    expect((await outsider.audit.list({ teamId: tb.fx.otherTeamId })).rows).toEqual([]);
  });
});

describe('audit.verify and audit.export', () => {
  it('verifies the chain and exports it as JSON Lines the offline verifier accepts', async () => {
    const api = await admin();
    expect(await api.audit.verify({ teamId: tb.fx.teamId })).toMatchObject({ ok: true, rows: 5 });
    const exported = await api.audit.export({ teamId: tb.fx.teamId });
    expect(exported.filename).toMatch(/^looplane-audit-team-[0-9a-f]+-\d{4}-\d{2}-\d{2}\.jsonl$/);
    expect(exported.text.trimEnd().split('\n')).toHaveLength(6);
    expect(verifyAuditExport(exported.text)).toMatchObject({ ok: true, rows: 5, teamId: tb.fx.teamId });
  });

  it('names the first broken row after a superuser edits one behind the trigger', async () => {
    const api = await admin();
    const before = await api.audit.export({ teamId: tb.fx.teamId });
    await tb.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
      await tx.$executeRawUnsafe(`UPDATE "AuditLog" SET data = '{"version": 1}' WHERE "teamId" = '${tb.fx.teamId}' AND seq = 2`);
    });
    expect(await api.audit.verify({ teamId: tb.fx.teamId })).toMatchObject({ ok: false, brokenSeq: 2, reason: expect.stringMatching(/edited/) });
    const after = await api.audit.export({ teamId: tb.fx.teamId });
    expect(verifyAuditExport(after.text)).toMatchObject({ ok: false, line: 3, seq: 2 });
    // The export taken before the edit still verifies: the auditor's copy is evidence.
    expect(verifyAuditExport(before.text)).toMatchObject({ ok: true, rows: 5 });
  });
});
