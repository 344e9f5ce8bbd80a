/** What seeding did, for the sign-in hint. */
export interface SeedSummary {
  adminEmail: string;
  adminCreated: boolean;
  /** Set only on the start that created the admin without LOOPLANE_ADMIN_PASSWORD. */
  generatedPassword: string | null;
  bootstrapTokenCreated: boolean;
}

/**
 * Seeds the database (admin, demo team, faux model endpoint; idempotent) through @looplane/db.
 * Imported lazily so `looplane --help` never loads Prisma.
 */
export async function seed(options: { databaseUrl: string; adminPassword?: string; bootstrapToken?: string }): Promise<SeedSummary> {
  const { ADMIN_EMAIL, createDb, seedDatabase } = await import('@looplane/db');
  const db = createDb(options.databaseUrl, { poolSize: 2 });
  try {
    const result = await seedDatabase(db, {
      ...(options.adminPassword ? { adminPassword: options.adminPassword } : {}),
      ...(options.bootstrapToken ? { bootstrapToken: options.bootstrapToken } : {}),
    });
    return { adminEmail: ADMIN_EMAIL, ...result };
  } finally {
    await db.$disconnect();
  }
}
