import { auditRowContent, type AuditEntry, type Tx } from './audit.repository';
import { GENESIS_HASH, chainHash, type AuditRowContent } from './chain';
import { withClient, type PgPool } from '../runs/pg-pool';

interface BatchRow extends AuditRowContent {
  prevHash: string;
  hash: string;
}

/**
 * Appends many rows to the teams' hash chains inside the caller's transaction, producing exactly
 * the chain that `appendAudit` called once per entry, in order, would: same `seq`, `prevHash`,
 * `hash`, data (a token actor's `onBehalfOf` included) and non-decreasing `createdAt`. The point is
 * the cost: one advisory-lock acquisition and one tail read per team, and one INSERT for all rows,
 * instead of three statements per row with the team's lock held across all of them. Teams are
 * locked in sorted order, so two batches that share teams cannot deadlock. Returns each entry's
 * `{ seq, hash }` in input order.
 */
export async function appendAuditBatch(tx: Tx, entries: readonly AuditEntry[]): Promise<Array<{ seq: number; hash: string }>> {
  if (entries.length === 0) return [];
  const tails = new Map<string, { seq: number; hash: string }>();
  for (const teamId of teamsOf(entries)) {
    await tx.$executeRawUnsafe(LOCK_SQL, lockKey(teamId));
    // Read after the lock, in a statement of its own: its snapshot then sees the previous holder's commit.
    const tail = await tx.$queryRawUnsafe<Array<{ seq: number; hash: string }>>(TAIL_SQL, teamId);
    tails.set(teamId, tail[0] ?? { seq: 0, hash: GENESIS_HASH });
  }
  const rows = chainRows(entries, tails);
  await tx.$executeRawUnsafe(insertSql('$1'), JSON.stringify(rows));
  return rows.map((row) => ({ seq: row.seq, hash: row.hash }));
}

/**
 * {@link appendAuditBatch} in a transaction of its own on a `pg` pool, in two round trips: BEGIN
 * with every team's lock and tail read (separate statements of one simple query, so each tail read
 * takes its snapshot after its lock), then the INSERT with COMMIT. The worker audits a policy
 * decision on every tool call, so this sits on the hot path of every turn.
 */
export async function appendAuditBatchPg(pool: PgPool, entries: readonly AuditEntry[]): Promise<Array<{ seq: number; hash: string }>> {
  if (entries.length === 0) return [];
  return withClient(pool, async (client) => {
    const lit = (value: string) => client.escapeLiteral(value);
    const teams = teamsOf(entries);
    const opened = (await client.query(
      ['BEGIN', ...teams.flatMap((teamId) => [LOCK_SQL.replace('$1', lit(lockKey(teamId))), TAIL_SQL.replace('$1', lit(teamId))])].join(';\n'),
    )) as unknown as Array<{ rows: Array<{ seq: number; hash: string }> }>;
    const tails = new Map<string, { seq: number; hash: string }>();
    // Results come back per statement: BEGIN, then lock and tail for each team in order.
    teams.forEach((teamId, i) => tails.set(teamId, opened[2 + i * 2]!.rows[0] ?? { seq: 0, hash: GENESIS_HASH }));
    const rows = chainRows(entries, tails);
    await client.query(`${insertSql(lit(JSON.stringify(rows)))};\nCOMMIT`);
    return rows.map((row) => ({ seq: row.seq, hash: row.hash }));
  });
}

const LOCK_SQL = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';
const TAIL_SQL = 'SELECT seq, hash FROM "AuditLog" WHERE "teamId" = $1 ORDER BY seq DESC LIMIT 1';
const lockKey = (teamId: string) => `audit:${teamId}`;
const teamsOf = (entries: readonly AuditEntry[]) => [...new Set(entries.map((e) => e.teamId))].sort();

/** The rows of the batch, chained onto each team's tail in input order. */
function chainRows(entries: readonly AuditEntry[], tails: Map<string, { seq: number; hash: string }>): BatchRow[] {
  return entries.map((entry) => {
    const tail = tails.get(entry.teamId)!;
    const content = auditRowContent(entry, tail.seq + 1);
    const hash = chainHash(tail.hash, content);
    tails.set(entry.teamId, { seq: content.seq, hash });
    return { ...content, prevHash: tail.hash, hash };
  });
}

/**
 * One statement for all rows, from a JSON array (`json`: a placeholder or a quoted literal);
 * WITH ORDINALITY keeps the insertion (and so the id) order of the input. `createdAt` is UTC wall
 * time in a timestamp without zone, as Prisma writes it.
 */
function insertSql(json: string): string {
  return `INSERT INTO "AuditLog" ("teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash)
     SELECT r."teamId", r.seq, r."actorType"::"ActorType", r."actorId", r.action, r."targetType", r."targetId", r.data, r.ip,
            (r."createdAt" AT TIME ZONE 'UTC')::timestamp(3), r."prevHash", r.hash
     FROM ROWS FROM (jsonb_to_recordset(${json}::jsonb) AS (
       "teamId" text, seq int, "actorType" text, "actorId" text, action text, "targetType" text, "targetId" text,
       data jsonb, ip text, "createdAt" timestamptz, "prevHash" text, hash text)) WITH ORDINALITY AS r(
       "teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash, ord)
     ORDER BY r.ord`;
}
