import type { Queryable } from '../runs/pg-pool';
import { namedQuery } from '../sql/named-query';

const PROVE_SQL = namedQuery({ name: 'looplane_worker_prove_connection_v1', params: {}, text: 'SELECT 1' });

/** One round trip that proves the database answers: a wrong URL or credentials fail here. */
export async function proveDatabaseConnection(db: Queryable): Promise<void> {
  await db.query(PROVE_SQL.bind({}));
}
