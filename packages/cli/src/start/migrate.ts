import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from './paths';
import { runCommand } from './run-command';

interface PrismaOptions {
  env: Record<string, string>;
  logDir: string;
  signal: AbortSignal;
}

function prisma(args: string[], name: string, options: PrismaOptions & { databaseUrl?: string }): Promise<void> {
  return runCommand({
    name,
    command: process.execPath,
    args: [paths.prismaBin, ...args],
    cwd: paths.repoRoot,
    env: {
      ...options.env,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      // Offline: no update check or telemetry request.
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
    signal: options.signal,
    logFile: join(options.logDir, `${name}.log`),
  });
}

/** Whether the generated Prisma client is missing (a fresh clone before `prisma generate`). */
export function prismaClientMissing(): boolean {
  return !existsSync(paths.generatedPrismaClient);
}

/** `prisma generate` from the repo root; output is shown only when it fails. */
export function generatePrismaClient(options: PrismaOptions): Promise<void> {
  return prisma(['generate'], 'prisma-generate', options);
}

/**
 * Applies pending migrations with the real Prisma CLI (`migrate deploy`, offline engine set by
 * prisma.config.ts); output is shown only when it fails, and kept in LOOPLANE_HOME/logs.
 */
export function applyMigrations(options: PrismaOptions & { databaseUrl: string }): Promise<void> {
  return prisma(['migrate', 'deploy'], 'migrate', options);
}
