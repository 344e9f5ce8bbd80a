import type { Db } from '@looplane/db';

/** Per table of the public schema: its row count and a digest of its rows (`count:md5`). */
export type DbFingerprint = Record<string, string>;

/**
 * Bookkeeping a request may write without changing anything anyone asked for: a token's
 * `lastUsedAt` is recorded off the request path (token-lookup.ts), whatever the answer was.
 */
const VOLATILE_COLUMNS: Record<string, string[]> = { ApiToken: ['lastUsedAt'] };

function rowText(table: string): string {
  const dropped = (VOLATILE_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join('');
  return `(to_jsonb(t)${dropped})::text`;
}

interface Tables {
  all: string[];
  /** Tables with a `teamId` column. */
  withTeam: string[];
  /** Of those, the ones whose rows have an `id`. */
  withTeamIds: string[];
}

async function tablesOf(db: Db): Promise<Tables> {
  const has = (column: string) =>
    `EXISTS (SELECT 1 FROM information_schema.columns i WHERE i.table_schema = 'public' AND i.table_name = c.relname AND i.column_name = '${column}')`;
  const tables = await db.$queryRawUnsafe<Array<{ name: string; team: boolean; id: boolean }>>(
    `SELECT c.relname AS name, ${has('teamId')} AS team, ${has('id')} AS id
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations' ORDER BY 1`,
  );
  const withTeam = tables.filter((t) => t.team);
  return { all: tables.map((t) => t.name), withTeam: withTeam.map((t) => t.name), withTeamIds: withTeam.filter((t) => t.id).map((t) => t.name) };
}

/** Each table's fingerprint, of the rows its `where` (SQL, or '') selects. */
async function digest(db: Db, tables: Array<[table: string, where: string]>, args: unknown[]): Promise<DbFingerprint> {
  const sql = tables
    .map(
      ([table, where]) =>
        `SELECT '${table}' AS name, count(*)::int AS n, coalesce(md5(string_agg(md5(${rowText(table)}), '' ORDER BY md5(${rowText(table)}))), '') AS d FROM "${table}" t ${where}`,
    )
    .join(' UNION ALL ');
  const rows = await db.$queryRawUnsafe<Array<{ name: string; n: number; d: string }>>(sql, ...args);
  return Object.fromEntries(rows.map((row) => [row.name, `${row.n}:${row.d}`]));
}

/**
 * Fingerprints of the database's content, for "nothing was written": equal fingerprints mean no
 * row was added, removed or changed (every column but {@link VOLATILE_COLUMNS}).
 */
export function dbFingerprints(db: Db) {
  let tables: Promise<Tables> | null = null;
  const known = () => (tables ??= tablesOf(db));
  return {
    /** Every table's rows. */
    all: async () =>
      digest(
        db,
        (await known()).all.map((table) => [table, '']),
        [],
      ),
    /** The rows of one team: its `Team` row and its rows of every table with a `teamId` column. */
    team: async (teamId: string) =>
      digest(db, [['Team', 'WHERE t.id = $1'], ...(await known()).withTeam.map((table): [string, string] => [table, 'WHERE t."teamId" = $1'])], [teamId]),
    /** The ids of one team's rows (every table with a `teamId`, and its runs' sessions): what another team must never be shown. */
    async teamIds(teamId: string): Promise<Set<string>> {
      const { withTeamIds } = await known();
      const sql = [
        ...withTeamIds.map((table) => `SELECT t.id::text AS id FROM "${table}" t WHERE t."teamId" = $1`),
        `SELECT s.id FROM "Session" s JOIN "Run" r ON r.id = s."runId" WHERE r."teamId" = $1`,
      ].join(' UNION ');
      const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(sql, teamId);
      // Numeric ids (audit rows, deliveries' sequence numbers) are not secrets, and would match any number.
      return new Set([teamId, ...rows.map((row) => row.id).filter((id) => !/^\d+$/.test(id))]);
    },
  };
}
