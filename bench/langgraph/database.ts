// A throwaway database for the peer, on the same Postgres as Looplane's (TEST_PG_ADMIN_URL),
// created and dropped by the bench. fsync and synchronous_commit are the server's (on by default).
import { randomBytes } from 'node:crypto';
import { pgAdminUrl } from '@looplane/testkit';
import pg from 'pg';

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `bench_langgraph_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withAdmin(async (admin) => {
        // pg's pool.end() resolves before its sockets close; a forced drop would then kill a client
        // that no longer has the pool's error handler (an uncaught error). Let them go first.
        for (let i = 0; i < 50; i++) {
          const open = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if ((open.rows[0] as { n: number }).n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}
