// What one run leaves in Postgres, table by table: every row of every table a run writes
// (prisma/schema.prisma: the models keyed by the run, its sessions' and ledgers' rows, and the
// team-scoped rows the run's work appends), measured as LangGraph's thread is
// (bench/langgraph/checkpointers.ts): the sum of `pg_column_size` of each row, after TOAST
// compression, indexes not counted. A row count of every table before and after the run checks
// that no table the run wrote is missing from the list.
import type { Queryable } from '@looplane/db';

/** How a table's rows belong to the run: `$1` is the run id, `$2` its team, `$3` the team's audit seq before the run. */
const RUN_TABLES: Array<{ table: string; where: string }> = [
  { table: 'Run', where: 'id = $1' },
  { table: 'Session', where: '"runId" = $1' },
  { table: 'Event', where: '"runId" = $1' },
  { table: 'BudgetLedger', where: '"runId" = $1' },
  { table: 'BudgetEntry', where: '"ledgerId" IN (SELECT id FROM "BudgetLedger" WHERE "runId" = $1)' },
  // The team's hash chain: the policy decisions (and any other audit rows) appended during the run.
  { table: 'AuditLog', where: '"teamId" = $2 AND seq > $3' },
  { table: 'Approval', where: '"runId" = $1' },
  { table: 'PolicyShadowDisagreement', where: '"runId" = $1' },
  { table: 'MemoryEntry', where: '"runId" = $1' },
  { table: 'InboxMessage', where: '"runId" = $1' },
  { table: 'SwarmCrossing', where: '"runId" = $1' },
  { table: 'WorkspacePack', where: '"runId" = $1' },
  { table: 'WorkspacePackChunk', where: '"runId" = $1' },
  { table: 'WorkspaceRemoval', where: '"runId" = $1' },
  { table: 'WebhookOutbox', where: '"teamId" = $2' },
  { table: 'WebhookDelivery', where: '"teamId" = $2' },
  { table: 'IdempotencyKey', where: '"teamId" = $2' },
];

interface TableStorage {
  rows: number;
  bytes: number;
}

export interface RunStorage {
  /** Tables the run left rows in, with their rows and bytes. */
  tables: Record<string, TableStorage>;
  rows: number;
  bytes: number;
  /** Tables that gained rows during the run but are not counted above (should be none). */
  unattributed: string[];
}

/** Row counts of every table of the database (the before/after check). */
async function tableCounts(db: Queryable): Promise<Map<string, number>> {
  const names = await db.query({ text: `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '\\_prisma%' ORDER BY tablename` });
  const tables = (names.rows as Array<{ tablename: string }>).map((r) => r.tablename);
  if (tables.length === 0) return new Map();
  const counts = await db.query({ text: tables.map((t) => `SELECT '${t}' AS t, count(*)::bigint AS n FROM "${t}"`).join(' UNION ALL ') });
  return new Map((counts.rows as Array<{ t: string; n: string }>).map((r) => [r.t, Number(r.n)]));
}

export interface StorageBaseline {
  counts: Map<string, number>;
  auditSeq: number;
}

/** Taken before the run is created: what the database holds already. */
export async function storageBaseline(db: Queryable, teamId: string): Promise<StorageBaseline> {
  const seq = await db.query({ text: `SELECT coalesce(max(seq), 0)::int AS seq FROM "AuditLog" WHERE "teamId" = $1`, values: [teamId] });
  return { counts: await tableCounts(db), auditSeq: (seq.rows[0] as { seq: number }).seq };
}

/** Everything the run left, after it ended. */
export async function runStorage(db: Queryable, runId: string, teamId: string, baseline: StorageBaseline): Promise<RunStorage> {
  const result = await db.query({
    text: RUN_TABLES.map(
      ({ table, where }) =>
        `SELECT '${table}' AS t, count(*)::bigint AS rows, coalesce(sum(pg_column_size(x.*)), 0)::bigint AS bytes FROM "${table}" x WHERE ${where}`,
    ).join(' UNION ALL '),
    values: [runId, teamId, baseline.auditSeq],
  });
  const tables: Record<string, TableStorage> = {};
  for (const row of result.rows as Array<{ t: string; rows: string; bytes: string }>) {
    if (Number(row.rows) > 0) tables[row.t] = { rows: Number(row.rows), bytes: Number(row.bytes) };
  }
  const after = await tableCounts(db);
  const counted = new Set(RUN_TABLES.map((t) => t.table));
  const unattributed = [...after].filter(([table, n]) => n > (baseline.counts.get(table) ?? 0) && !counted.has(table)).map(([table]) => table);
  const all = Object.values(tables);
  return { tables, rows: all.reduce((a, t) => a + t.rows, 0), bytes: all.reduce((a, t) => a + t.bytes, 0), unattributed };
}
