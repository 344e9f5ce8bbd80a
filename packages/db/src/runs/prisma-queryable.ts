import type { Db } from '../client';
import type { Tx } from '../audit/audit.repository';
import type { Queryable } from './pg-pool';

/**
 * The node-postgres shape over a Prisma client (or one of its transactions), so the API calls the
 * same repository functions the worker calls on its pool: a fork's log is read exactly as the worker
 * replays it. Prisma sends the statement unnamed (planned for its values) and decodes the rows itself;
 * the repositories read back values that both drivers decode alike (epoch milliseconds, not
 * timestamps without a zone). Every statement goes as a query: `rowCount` is the rows returned, so a
 * statement whose affected-row count matters takes the Prisma transaction instead.
 */
export function queryableOf(db: Db | Tx): Queryable {
  return {
    async query(config) {
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(config.text, ...(config.values ?? []));
      return { rows, rowCount: rows.length, command: 'SELECT', oid: 0, fields: [] };
    },
  };
}
