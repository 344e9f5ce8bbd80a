import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { recordAudit } from './audit.repository';
import { chainHash, GENESIS_HASH, type AuditRowContent } from './chain';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

describe('audit chain (real Postgres)', () => {
  it('concurrent appends form one gap-free chain whose hashes verify', async () => {
    const team = await t.db.team.create({ data: { slug: 'audit-team', name: 'Audit' } });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => recordAudit(t.db, { teamId: team.id, actor: { type: 'system', name: 'test' }, action: 'test.action', data: { i } })),
    );
    const rows = await t.db.auditLog.findMany({ where: { teamId: team.id }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    let prev = GENESIS_HASH;
    for (const row of rows) {
      const content: AuditRowContent = {
        teamId: row.teamId,
        seq: row.seq,
        actorType: row.actorType,
        actorId: row.actorId,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        data: row.data,
        ip: row.ip,
        createdAt: row.createdAt.toISOString(),
      };
      expect(row.prevHash).toBe(prev);
      expect(row.hash).toBe(chainHash(prev, content));
      prev = row.hash;
    }
  });

  it('chains are per team', async () => {
    const a = await t.db.team.create({ data: { slug: 'chain-a', name: 'A' } });
    const b = await t.db.team.create({ data: { slug: 'chain-b', name: 'B' } });
    const actor = { type: 'system', name: 'test' } as const;
    await recordAudit(t.db, { teamId: a.id, actor, action: 'x' });
    const first = await recordAudit(t.db, { teamId: b.id, actor, action: 'x' });
    expect(first.seq).toBe(1);
  });

  it('the database refuses UPDATE and DELETE of audit rows', async () => {
    const team = await t.db.team.create({ data: { slug: 'immutable', name: 'I' } });
    await recordAudit(t.db, { teamId: team.id, actor: { type: 'system', name: 'test' }, action: 'x' });
    await expect(t.db.$executeRawUnsafe(`UPDATE "AuditLog" SET action = 'y' WHERE "teamId" = '${team.id}'`)).rejects.toThrow(/immutable/i);
    await expect(t.db.$executeRawUnsafe(`DELETE FROM "AuditLog" WHERE "teamId" = '${team.id}'`)).rejects.toThrow(/immutable/i);
  });
});
