import { auditRowContent, type AuditEntry, type Tx } from './audit.repository';
import { GENESIS_HASH, chainHash, type AuditRowContent } from './chain';
import { withClient, type PgPool } from '../runs/pg-pool';
import { quoteLiteral } from '../runs/sql-literal';

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
 * The chain tails a writer last saw, per team. With them a batch is chained before it is sent and
 * written in one round trip whose INSERT first checks, under the team's lock, that the tail is
 * still the one it was chained onto; only when another writer moved it does the batch take the
 * two-round-trip path. A batch chained onto a tail that is not yet committed (the batch before it,
 * in flight) is checked the same way, so a failure of the first only sends the second the long way.
 */
export class AuditTails {
  private readonly tails = new Map<string, { seq: number; hash: string }>();

  get(teamId: string): { seq: number; hash: string } | undefined {
    return this.tails.get(teamId);
  }

  set(teamId: string, tail: { seq: number; hash: string }): void {
    this.tails.set(teamId, tail);
  }

  forget(teamIds: readonly string[]): void {
    for (const teamId of teamIds) this.tails.delete(teamId);
  }
}

/**
 * {@link appendAuditBatch} in a transaction of its own on a `pg` pool. Without known tails (or
 * when one moved), two round trips: BEGIN with every team's lock and tail read (separate
 * statements of one simple query, so each tail read takes its snapshot after its lock), then the
 * INSERT with COMMIT. With `tails` that still hold, one: BEGIN, the locks, an INSERT that writes
 * nothing unless every tail is the expected one, COMMIT. The worker audits a policy decision on
 * every tool call, so this sits on the hot path of every turn.
 */
export async function appendAuditBatchPg(pool: PgPool, entries: readonly AuditEntry[], tails?: AuditTails): Promise<Array<{ seq: number; hash: string }>> {
  if (entries.length === 0) return [];
  const teams = teamsOf(entries);
  const known = tails && teams.every((teamId) => tails.get(teamId) !== undefined);
  try {
    return await withClient(pool, async (client) => {
      const locks = teams.map((teamId) => LOCK_SQL.replace('$1', () => quoteLiteral(lockKey(teamId))));
      if (known) {
        const expected = new Map(teams.map((teamId) => [teamId, tails.get(teamId)!]));
        const rows = chainRows(entries, new Map(expected));
        for (const [teamId, tail] of lastOfEachTeam(rows)) tails.set(teamId, tail);
        const checks = JSON.stringify([...expected].map(([teamId, tail]) => ({ teamId, seq: tail.seq, hash: tail.hash })));
        const results = (await client.query(
          ['BEGIN', ...locks, insertSql(quoteLiteral(JSON.stringify(rows)), quoteLiteral(checks)), 'COMMIT'].join(';\n'),
        )) as unknown as Array<{ rowCount: number | null }>;
        if (results[results.length - 2]!.rowCount === rows.length) return rows.map((row) => ({ seq: row.seq, hash: row.hash }));
        // Another writer moved a tail: the transaction committed nothing; chain onto the true tails.
      }
      const opened = (await client.query(
        ['BEGIN', ...teams.flatMap((teamId, i) => [locks[i]!, TAIL_SQL.replace('$1', () => quoteLiteral(teamId))])].join(';\n'),
      )) as unknown as Array<{ rows: Array<{ seq: number; hash: string }> }>;
      const found = new Map<string, { seq: number; hash: string }>();
      // Results come back per statement: BEGIN, then lock and tail for each team in order.
      teams.forEach((teamId, i) => found.set(teamId, opened[2 + i * 2]!.rows[0] ?? { seq: 0, hash: GENESIS_HASH }));
      const rows = chainRows(entries, found);
      await client.query(`${insertSql(quoteLiteral(JSON.stringify(rows)))};\nCOMMIT`);
      if (tails) for (const [teamId, tail] of lastOfEachTeam(rows)) tails.set(teamId, tail);
      return rows.map((row) => ({ seq: row.seq, hash: row.hash }));
    });
  } catch (error) {
    // What was chained onto these tails may not have been written: ask Postgres next time.
    tails?.forget(teams);
    throw error;
  }
}

function lastOfEachTeam(rows: readonly BatchRow[]): Map<string, { seq: number; hash: string }> {
  return new Map(rows.map((row) => [row.teamId, { seq: row.seq, hash: row.hash }]));
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
 * time in a timestamp without zone, as Prisma writes it. With `checks` (a JSON array of
 * `{ teamId, seq, hash }`), nothing is inserted unless each team's tail is the one given.
 */
function insertSql(json: string, checks?: string): string {
  const guard = checks
    ? `WHERE NOT EXISTS (
         SELECT 1 FROM jsonb_to_recordset(${checks}::jsonb) AS e("teamId" text, seq int, hash text)
         LEFT JOIN LATERAL (SELECT a.seq, a.hash FROM "AuditLog" a WHERE a."teamId" = e."teamId" ORDER BY a.seq DESC LIMIT 1) t ON true
         WHERE COALESCE(t.seq, 0) <> e.seq OR COALESCE(t.hash, '${GENESIS_HASH}') <> e.hash)`
    : '';
  return `INSERT INTO "AuditLog" ("teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash)
     SELECT r."teamId", r.seq, r."actorType"::"ActorType", r."actorId", r.action, r."targetType", r."targetId", r.data, r.ip,
            (r."createdAt" AT TIME ZONE 'UTC')::timestamp(3), r."prevHash", r.hash
     FROM ROWS FROM (jsonb_to_recordset(${json}::jsonb) AS (
       "teamId" text, seq int, "actorType" text, "actorId" text, action text, "targetType" text, "targetId" text,
       data jsonb, ip text, "createdAt" timestamptz, "prevHash" text, hash text)) WITH ORDINALITY AS r(
       "teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash, ord)
     ${guard}
     ORDER BY r.ord`;
}
