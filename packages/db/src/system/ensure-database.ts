import pg from 'pg';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param } from '../sql/named-query';

const EXISTS_SQL = namedQuery({
  name: 'looplane_system_database_exists_v1',
  params: { name: param.text },
  text: 'SELECT 1 FROM pg_database WHERE datname = :name',
});

/**
 * Creates the database `name` unless the cluster has it; `admin` is a connection to another
 * database (`postgres`) as a role that may create databases. CREATE DATABASE takes no parameters
 * and cannot run in a transaction, so it is sent alone, its name quoted as an identifier.
 */
export async function ensureDatabase(admin: Queryable, name: string): Promise<void> {
  const found = await admin.query(EXISTS_SQL.bind({ name }));
  if (found.rowCount === 0) await admin.query({ text: `CREATE DATABASE ${pg.escapeIdentifier(name)}` });
}
