import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TOOLS } from '@looplane/engine';
import { evaluate, isSourceAllowed, parsePolicyDocument } from '@looplane/policy';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { seedDatabase, ADMIN_EMAIL } from './seed';
import { verifyPassword } from './crypto/password';
import { hashApiToken } from './crypto/api-token';
import { SecretBox } from './crypto/secret-box';
import { randomBytes } from 'node:crypto';

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
      'faux-inbox',
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
      'demo-inbox',
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
    expect(await t.db.modelEndpoint.count()).toBe(10);
    expect(await t.db.agentTemplate.count()).toBe(9);
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

  it('with the demo repository: the demo-repo agent starts from it, and a first policy allows it and holds every push for an approver', async () => {
    const fresh = await createTestDatabase();
    try {
      // An installation seeded before this demo existed gains it on its next start.
      await seedDatabase(fresh.db);
      expect(await fresh.db.agentTemplate.count({ where: { name: 'demo-repo' } })).toBe(0);
      const repositoryPath = '/srv/looplane home/repos/demo-repo.git';
      await seedDatabase(fresh.db, { demoRepositoryPath: repositoryPath });
      await seedDatabase(fresh.db, { demoRepositoryPath: repositoryPath });

      const agent = await fresh.db.agentTemplate.findFirstOrThrow({ where: { name: 'demo-repo' }, include: { endpoint: true } });
      const url = 'file:///srv/looplane%20home/repos/demo-repo.git';
      expect(agent.workspace).toEqual({ git: { url } });
      const tools = (agent.tools as Array<{ name: string }>).map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'list_files', 'search_files', 'shell', ...DELIVERY_TOOLS]));
      expect(agent.endpoint.name).toBe('faux-repo');
      const script = (agent.endpoint.config as { script: Array<{ calls: Array<{ tool: string; args: Record<string, unknown> }> }> }).script;
      expect(script.map((turn) => turn.calls[0]!.tool)).toEqual([
        'load_tools',
        'read_file',
        'shell',
        'read_file',
        'edit_file',
        'shell',
        'export_patch',
        'publish_branch',
      ]);
      expect(script.at(-1)!.calls[0]!.args).toEqual({ branch: 'fix/slugify', message: 'Fix slugify' });

      const team = await fresh.db.team.findUniqueOrThrow({ where: { slug: 'demo' } });
      const policy = await fresh.db.policy.findFirstOrThrow({ where: { teamId: team.id }, include: { versions: true } });
      expect(policy.activeVersion).toBe(1);
      expect(policy.versions).toHaveLength(1);
      const document = parsePolicyDocument(policy.versions[0]!.document);
      expect(document.workspace.sources).toEqual(['file:///srv/looplane%20home/repos/**']);
      expect(isSourceAllowed(document.workspace.sources, url).allowed).toBe(true);
      expect(isSourceAllowed(document.workspace.sources, 'file:///srv/other/repo.git').allowed).toBe(false);
      expect(evaluate(document, { tool: 'publish_branch', args: { branch: 'fix/slugify', message: 'Fix slugify' } })).toMatchObject({
        outcome: 'require_approval',
        ruleId: 'deliver-needs-approval',
      });
      expect(evaluate(document, { tool: 'shell', args: { command: 'npm test' } }).outcome).toBe('allow');
      expect(await fresh.db.auditLog.count({ where: { teamId: team.id, action: 'policy.saved' } })).toBe(1);
    } finally {
      await fresh.drop();
    }
  });

  it('the always-on demo: a persistent demo-inbox agent, its trigger (secret sealed with the key) and its 30-minute schedule (paused), once', async () => {
    const fresh = await createTestDatabase();
    try {
      // Without a key there is nothing to seal a trigger secret with: agent and schedule only.
      await seedDatabase(fresh.db);
      expect(await fresh.db.trigger.count()).toBe(0);
      const key = randomBytes(32).toString('base64');
      await seedDatabase(fresh.db, { encryptionKey: key });
      await seedDatabase(fresh.db, { encryptionKey: key });

      const agent = await fresh.db.agentTemplate.findFirstOrThrow({ where: { name: 'demo-inbox' }, include: { endpoint: true } });
      expect(agent).toMatchObject({ persistent: true });
      expect((agent.endpoint.config as { finalText: string }).finalText).toContain('{{lastUserMessage}}');
      const trigger = await fresh.db.trigger.findFirstOrThrow({ where: { name: 'demo-inbox-mail' } });
      expect(trigger).toMatchObject({ target: 'start_run', agentId: agent.id, auth: 'standard_webhooks', enabled: true });
      expect(new SecretBox(key).open(trigger.secretCiphertext)).toMatch(/^whsec_/);
      const admin = await fresh.db.user.findUniqueOrThrow({ where: { email: ADMIN_EMAIL } });
      expect(trigger.createdById).toBe(admin.id);
      const schedule = await fresh.db.schedule.findFirstOrThrow({ where: { name: 'demo-inbox-sweep' } });
      // Seeded paused: a fresh instance starts no work by itself.
      expect(schedule).toMatchObject({ agentId: agent.id, everySeconds: 1800, enabled: false, nextFireAt: null, catchUp: 'none', createdById: admin.id });
      expect(await fresh.db.trigger.count()).toBe(1);
      expect(await fresh.db.schedule.count()).toBe(1);
      expect(await fresh.db.auditLog.count({ where: { action: { in: ['trigger.created', 'schedule.created'] } } })).toBe(2);
    } finally {
      await fresh.drop();
    }
  });

  it('never changes a policy the demo team already has', async () => {
    const fresh = await createTestDatabase();
    try {
      await seedDatabase(fresh.db);
      const team = await fresh.db.team.findUniqueOrThrow({ where: { slug: 'demo' } });
      // An admin chose the built-in default again (version 0): that choice stands.
      await fresh.db.policy.create({ data: { teamId: team.id, name: 'default', activeVersion: 0 } });
      await seedDatabase(fresh.db, { demoRepositoryPath: '/srv/looplane/repos/demo-repo.git' });
      expect(await fresh.db.policy.findFirstOrThrow({ where: { teamId: team.id } })).toMatchObject({ activeVersion: 0 });
      expect(await fresh.db.policyVersion.count()).toBe(0);
      expect(await fresh.db.agentTemplate.count({ where: { name: 'demo-repo' } })).toBe(1);
    } finally {
      await fresh.drop();
    }
  });
});
