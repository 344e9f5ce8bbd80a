/** What seeding did, for the sign-in hint. */
export interface SeedSummary {
  adminEmail: string;
  adminCreated: boolean;
  /** Set only on the start that created the admin without LOOPLANE_ADMIN_PASSWORD. */
  generatedPassword: string | null;
  bootstrapTokenCreated: boolean;
}

/**
 * Seeds the database (admin, demo team, faux model endpoints, demo agents; idempotent) through @looplane/db.
 * Imported lazily so `looplane --help` never loads Prisma.
 */
export async function seed(options: {
  databaseUrl: string;
  adminPassword?: string;
  bootstrapToken?: string;
  /** The demo's bare repository, when there is one: the `demo-repo` agent starts from it. */
  demoRepositoryPath?: string;
  /** Seals the always-on demo's trigger secret (LOOPLANE_ENCRYPTION_KEY). */
  encryptionKey?: string;
}): Promise<SeedSummary> {
  const { ADMIN_EMAIL, createDb, seedDatabase } = await import('@looplane/db');
  const db = createDb(options.databaseUrl, { poolSize: 2 });
  try {
    const result = await seedDatabase(db, {
      ...(options.adminPassword ? { adminPassword: options.adminPassword } : {}),
      ...(options.bootstrapToken ? { bootstrapToken: options.bootstrapToken } : {}),
      ...(options.demoRepositoryPath ? { demoRepositoryPath: options.demoRepositoryPath } : {}),
      ...(options.encryptionKey ? { encryptionKey: options.encryptionKey } : {}),
    });
    return { adminEmail: ADMIN_EMAIL, ...result };
  } finally {
    await db.$disconnect();
  }
}
