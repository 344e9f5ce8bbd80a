// Prisma 7 configuration (read by every `prisma` CLI command from the repo root).
//
// Connection URLs live here, not in schema.prisma (Prisma 7 removed `url` from
// the datasource block). The app itself connects through @prisma/adapter-pg.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));

// WHY: the CLI otherwise downloads Prisma's native schema engine before
// almost every command (even `generate`), and we run without network. This
// Node script speaks the same stdio protocol, backed by
// @prisma/schema-engine-wasm + @prisma/adapter-pg (see the file's header).
// Set here so every entry point (npm scripts, npx, postinstall, tests) gets
// it; an explicit env value still wins, e.g. to try a native binary.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(repoRoot, 'packages/db/bin/schema-engine.mjs');

// Not `env("DATABASE_URL")`: that throws when the variable is unset, and
// `prisma generate` (run by postinstall) needs no database. Leaving `url`
// undefined keeps generate working and makes database commands fail with
// Prisma's own clear "datasource.url property is required" error, instead of
// reaching for a placeholder database.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the Prisma CLI, which no turbo task runs, so no cached turbo output depends on it.
const url = process.env.DATABASE_URL || undefined;

export default defineConfig({
  schema: path.join(repoRoot, 'prisma/schema.prisma'),
  migrations: {
    path: path.join(repoRoot, 'prisma/migrations'),
  },
  datasource: {
    url,
    // Optional; without it `migrate dev` creates and drops a temporary
    // prisma_migrate_shadow_db_<uuid> database on the same server.
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the Prisma CLI (migrate dev), which no turbo task runs.
    shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL || undefined,
  },
});
