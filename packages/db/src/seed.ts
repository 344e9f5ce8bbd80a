import type { Db } from './client';
import { appendAudit } from './audit/audit.repository';
import { displayPrefix, hashApiToken } from './crypto/api-token';
import { generatePassword, hashPassword } from './crypto/password';
import { seedApprovalDemo } from './seed-approval-demo';
import { seedEffectDemo } from './seed-effect-demo';
import { seedInboxDemo } from './seed-inbox-demo';
import { seedDemoContent } from './seed-demo';
import { namedQuery } from './sql/named-query';

export const ADMIN_EMAIL = 'admin@looplane.local';
export const DEMO_TEAM_SLUG = 'demo';
const FAUX_ENDPOINT_NAME = 'faux';

export interface SeedOptions {
  adminEmail?: string;
  /** Used when the admin is created; otherwise a password is generated and returned once. */
  adminPassword?: string;
  /** When set, an admin API token with exactly this value exists after seeding. */
  bootstrapToken?: string;
  /**
   * Absolute path of the demo's bare repository (`looplane start` makes it under LOOPLANE_HOME):
   * when set, the demo team gets the `demo-repo` agent whose runs start from it, and, if it never
   * had a policy, one that lets runs use the repositories in its directory (see seed-repo-demo.ts).
   */
  demoRepositoryPath?: string;
  /**
   * The instance's LOOPLANE_ENCRYPTION_KEY: when set, the always-on demo's trigger is seeded (its
   * secret sealed with it); without it the demo has its agent and schedule only.
   */
  encryptionKey?: string;
}

export interface SeedResult {
  adminCreated: boolean;
  /** Only set when the admin was created now without a given password. */
  generatedPassword: string | null;
  bootstrapTokenCreated: boolean;
}

const SYSTEM = { type: 'system', name: 'seed' } as const;

/** The seeders' lock, held until the seeding transaction ends. */
const SEED_LOCK_SQL = namedQuery({
  name: 'looplane_seed_lock_v1',
  params: {},
  text: "SELECT pg_advisory_xact_lock(hashtextextended('looplane:seed', 0))",
});

/**
 * Seeds a fresh installation exactly once: an admin, the `demo` team and an offline faux model
 * endpoint, and the demo content (missing pieces are added on every call, so an older
 * installation gains new demos). Safe to call on every start: existing rows are left as they are.
 */
export async function seedDatabase(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const email = (options.adminEmail ?? ADMIN_EMAIL).toLowerCase();
  const password = options.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  // Loaded before the transaction (it brings the policy package): its clock is already short.
  const repoDemo = options.demoRepositoryPath ? { path: options.demoRepositoryPath, ...(await import('./seed-repo-demo')) } : null;

  // A few dozen statements in one transaction: Prisma's 5 s default is tight on a busy two-core machine.
  return db.$transaction(
    async (tx) => {
      // Serialise concurrent seeders (two `start`s racing on one database).
      await tx.$executeRawUnsafe(SEED_LOCK_SQL.bind({}).text);
      const existingAdmin = await tx.user.findUnique({ where: { email } });
      const admin = existingAdmin ?? (await tx.user.create({ data: { email, name: 'Admin', passwordHash } }));

      let team = await tx.team.findUnique({ where: { slug: DEMO_TEAM_SLUG } });
      if (!team) {
        team = await tx.team.create({ data: { slug: DEMO_TEAM_SLUG, name: 'Demo' } });
        await tx.membership.create({ data: { teamId: team.id, userId: admin.id, role: 'admin' } });
        await tx.modelEndpoint.create({
          data: {
            teamId: team.id,
            name: FAUX_ENDPOINT_NAME,
            kind: 'faux',
            model: 'faux-1',
            contextWindow: 32000,
            maxOutputTokens: 1024,
            config: { thinkMs: 200 },
          },
        });
        await appendAudit(tx, {
          teamId: team.id,
          actor: SYSTEM,
          action: 'team.seeded',
          targetType: 'team',
          targetId: team.id,
          data: { adminUserId: admin.id, endpoint: FAUX_ENDPOINT_NAME },
        });
      }

      const faux = await tx.modelEndpoint.findUnique({ where: { teamId_name: { teamId: team.id, name: FAUX_ENDPOINT_NAME } } });
      if (faux) await seedDemoContent(tx, team.id, faux.id);
      await seedApprovalDemo(tx, team.id);
      await seedEffectDemo(tx, team.id);
      await seedInboxDemo(tx, team.id, admin.id, options.encryptionKey);
      if (repoDemo) await repoDemo.seedRepoDemo(tx, team.id, repoDemo.path);

      let bootstrapTokenCreated = false;
      if (options.bootstrapToken) {
        const tokenHash = hashApiToken(options.bootstrapToken);
        const existing = await tx.apiToken.findUnique({ where: { tokenHash } });
        if (!existing) {
          const token = await tx.apiToken.create({
            data: {
              teamId: team.id,
              createdById: admin.id,
              name: 'bootstrap',
              role: 'admin',
              tokenHash,
              prefix: displayPrefix(options.bootstrapToken),
            },
          });
          await appendAudit(tx, {
            teamId: team.id,
            actor: SYSTEM,
            action: 'token.created',
            targetType: 'token',
            targetId: token.id,
            data: { name: 'bootstrap', role: 'admin', source: 'LOOPLANE_BOOTSTRAP_TOKEN' },
          });
          bootstrapTokenCreated = true;
        }
      }

      return {
        adminCreated: !existingAdmin,
        generatedPassword: !existingAdmin && !options.adminPassword ? password : null,
        bootstrapTokenCreated,
      };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
