import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import type { Db } from '../client';
import { recordAudit } from './audit.repository';
import { exportTeamAudit, verifyTeamAudit } from './audit-walk';
import { verifyAuditExport } from './chain-verify';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

const actor = { type: 'user', userId: 'u-1' } as const;

async function teamWithChain(slug: string, rows: number): Promise<string> {
  const team = await t.db.team.create({ data: { slug, name: slug } });
  for (let i = 0; i < rows; i++) {
    await recordAudit(t.db, {
      teamId: team.id,
      actor,
      action: 'policy.saved',
      targetType: 'policy',
      targetId: `p${i}`,
      data: { version: i + 1 },
      ip: '10.0.0.1',
    });
  }
  return team.id;
}

/**
 * Runs SQL as a superuser with triggers off (`session_replication_role = replica` skips ordinary
 * triggers): exactly the tampering the immutability trigger cannot stop and the chain must catch.
 */
async function tamper(db: Db, sql: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
    for (const statement of sql.split(';')) await tx.$executeRawUnsafe(statement);
  });
}

describe('tampering with stored audit rows (superuser, trigger bypassed)', () => {
  it('a sound chain verifies, in the database and as an export', async () => {
    const teamId = await teamWithChain('sound', 7);
    expect(await verifyTeamAudit(t.db, teamId)).toMatchObject({ ok: true, rows: 7 });
    const exported = await exportTeamAudit(t.db, teamId);
    expect(verifyAuditExport(exported.text)).toMatchObject({ ok: true, rows: 7, headHash: exported.headHash });
  });

  const cases: [name: string, sql: (teamId: string) => string, brokenSeq: number, reason: RegExp][] = [
    ['edit the action', (id) => `UPDATE "AuditLog" SET action = 'nothing.happened' WHERE "teamId" = '${id}' AND seq = 3`, 3, /edited/],
    ['edit the data', (id) => `UPDATE "AuditLog" SET data = '{"version": 42}' WHERE "teamId" = '${id}' AND seq = 1`, 1, /edited/],
    ['edit the actor', (id) => `UPDATE "AuditLog" SET "actorId" = 'someone-else' WHERE "teamId" = '${id}' AND seq = 6`, 6, /edited/],
    ['backdate a row', (id) => `UPDATE "AuditLog" SET "createdAt" = "createdAt" - interval '1 day' WHERE "teamId" = '${id}' AND seq = 2`, 2, /edited/],
    ['edit the last row', (id) => `UPDATE "AuditLog" SET ip = '6.6.6.6' WHERE "teamId" = '${id}' AND seq = 7`, 7, /edited/],
    ['delete a row', (id) => `DELETE FROM "AuditLog" WHERE "teamId" = '${id}' AND seq = 4`, 5, /seq 5 where seq 4/],
    [
      'swap two rows',
      (id) =>
        [
          [2, -2],
          [3, 2],
          [-2, 3],
        ]
          .map(([from, to]) => `UPDATE "AuditLog" SET seq = ${to} WHERE "teamId" = '${id}' AND seq = ${from}`)
          .join(';'),
      2,
      /reordered/,
    ],
    ['replace a hash', (id) => `UPDATE "AuditLog" SET hash = repeat('a', 64) WHERE "teamId" = '${id}' AND seq = 5`, 5, /edited/],
  ];

  it.each(cases)('%s: audit.verify and the offline verifier both name the row', async (name, sql, brokenSeq, reason) => {
    const teamId = await teamWithChain(`t-${name.replace(/\W+/g, '-')}`, 7);
    await tamper(t.db, sql(teamId));
    const stored = await verifyTeamAudit(t.db, teamId);
    expect(stored).toMatchObject({ ok: false, broken: { seq: brokenSeq, reason: expect.stringMatching(reason) } });
    const offline = verifyAuditExport((await exportTeamAudit(t.db, teamId)).text);
    expect(offline).toMatchObject({ ok: false, seq: brokenSeq, reason: expect.stringMatching(reason) });
  });

  it('deleting the newest row is caught offline against an export taken before', async () => {
    const teamId = await teamWithChain('tail-cut', 4);
    const before = await exportTeamAudit(t.db, teamId);
    await tamper(t.db, `DELETE FROM "AuditLog" WHERE "teamId" = '${teamId}' AND seq = 4`);
    const after = await exportTeamAudit(t.db, teamId);
    // The shortened chain is internally sound; its head no longer matches the earlier export.
    expect(verifyAuditExport(after.text)).toMatchObject({ ok: true, rows: 3 });
    expect(after.headHash).not.toBe(before.headHash);
  });

  it('without the bypass the trigger refuses the same statements', async () => {
    const teamId = await teamWithChain('guarded', 2);
    await expect(t.db.$executeRawUnsafe(`UPDATE "AuditLog" SET action = 'x' WHERE "teamId" = '${teamId}'`)).rejects.toThrow(/immutable/i);
    await expect(t.db.$executeRawUnsafe(`DELETE FROM "AuditLog" WHERE "teamId" = '${teamId}'`)).rejects.toThrow(/immutable/i);
    expect(await verifyTeamAudit(t.db, teamId)).toMatchObject({ ok: true, rows: 2 });
  });
});
