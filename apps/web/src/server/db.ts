import 'server-only';
import { createDb, type Db } from '@looplane/db';
import { env } from '@/env';

// One Prisma client (and so one pg pool) per server process. Kept on globalThis so that
// `next dev` module reloads do not open a new pool on every edit.
const holder = globalThis as typeof globalThis & { __looplaneDb?: Db };

/** The process-wide database client, created on first use. */
export function db(): Db {
  holder.__looplaneDb ??= createDb(env().DATABASE_URL);
  return holder.__looplaneDb;
}
