import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { seedDatabase, ADMIN_EMAIL } from './seed';
import { verifyPassword } from './crypto/password';
import { hashApiToken } from './crypto/api-token';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

describe('seedDatabase', () => {
  it('seeds once: admin, demo team, faux endpoints and demo agents; a generated password is returned only the first time', async () => {
    const first = await seedDatabase(t.db);
    expect(first.adminCreated).toBe(true);
    expect(first.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const admin = await t.db.user.findUniqueOrThrow({ where: { email: ADMIN_EMAIL } });
    expect(await verifyPassword(first.generatedPassword!, admin.passwordHash!)).toBe(true);
    const team = await t.db.team.findUniqueOrThrow({ where: { slug: 'demo' }, include: { memberships: true, endpoints: true } });
    expect(team.memberships).toEqual([expect.objectContaining({ userId: admin.id, role: 'admin' })]);
    expect(team.endpoints.map((e) => e.name).sort()).toEqual([
      'faux',
      'faux-cleanup',
      'faux-script-cleanup',
      'faux-steps',
      'faux-steps-alt',
      'faux-swarm-coder',
      'faux-swarm-planner',
      'faux-swarm-researcher',
      'faux-swarm-reviewer',
    ]);
    expect((await t.db.agentTemplate.findMany({ where: { teamId: team.id } })).map((a) => a.name).sort()).toEqual([
      'demo',
      'demo-cleanup',
      'demo-script-cleanup',
      'demo-steps',
      'swarm-coder',
      'swarm-planner',
      'swarm-researcher',
      'swarm-reviewer',
    ]);

    const again = await seedDatabase(t.db, { adminPassword: 'another password' });
    expect(again).toEqual({ adminCreated: false, generatedPassword: null, bootstrapTokenCreated: false });
    expect(await t.db.team.count()).toBe(1);
    expect(await t.db.modelEndpoint.count()).toBe(9);
    expect(await t.db.agentTemplate.count()).toBe(8);
    expect(await t.db.swarmGraph.count()).toBe(1);
  });

  it('creates the bootstrap token with exactly the given value, once', async () => {
    const value = 'llp_bootstrap_token_for_automation_0001';
    expect((await seedDatabase(t.db, { bootstrapToken: value })).bootstrapTokenCreated).toBe(true);
    expect((await seedDatabase(t.db, { bootstrapToken: value })).bootstrapTokenCreated).toBe(false);
    const token = await t.db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken(value) } });
    expect(token.role).toBe('admin');
    expect(await t.db.auditLog.count({ where: { action: 'token.created' } })).toBe(1);
  });

  it('concurrent seeders do not duplicate anything', async () => {
    const fresh = await createTestDatabase();
    try {
      const results = await Promise.all([seedDatabase(fresh.db), seedDatabase(fresh.db), seedDatabase(fresh.db)]);
      expect(results.filter((r) => r.adminCreated)).toHaveLength(1);
      expect(await fresh.db.user.count()).toBe(1);
    } finally {
      await fresh.drop();
    }
  });
});
