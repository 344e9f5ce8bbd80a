import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

export type Db = PrismaClient;

/** Options for {@link createDb}. */
export interface CreateDbOptions {
  /** Max pooled connections (pg default 10). */
  poolSize?: number;
}

/**
 * Creates a Rust-free Prisma client over node-postgres. One instance per process:
 * it owns a connection pool, and `$disconnect()` closes it.
 */
export function createDb(url: string, options: CreateDbOptions = {}): Db {
  const adapter = new PrismaPg({ connectionString: url, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}

/**
 * A Prisma client over an existing node-postgres pool (the worker's runtime pool), for the few
 * worker writes that go through Prisma (audit rows, approval sweeps). The pool stays the caller's.
 */
export function createDbOnPool(pool: pg.Pool): Db {
  const adapter = new PrismaPg(pool);
  return new PrismaClient({ adapter });
}
