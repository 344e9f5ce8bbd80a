import type { Db } from '../client';
import { namedQuery } from '../sql/named-query';

const PING_SQL = namedQuery({ name: 'looplane_system_ping_v1', params: {}, text: 'SELECT 1' });

/** One round trip to the database: resolves when it answers (health checks). */
export async function pingDatabase(db: Db): Promise<void> {
  const q = PING_SQL.bind({});
  await db.$queryRawUnsafe(q.text, ...q.values);
}
