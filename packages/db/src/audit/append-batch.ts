import { AUDIT_LOCK_SQL, auditLockKey, auditRowContent, type AuditEntry, type Tx } from './audit.repository';
import { GENESIS_HASH, chainHash, type AuditRowContent } from './chain';
import { withClient, type PgPool } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** A chain's last row: where the next row attaches. */
type Tail = { seq: number; hash: string };

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
  const tails = new Map<string, Tail>();
  for (const teamId of teamsOf(entries)) {
    await lockChain(tx, teamId);
    // Read after the lock, in a statement of its own: its snapshot then sees the previous holder's commit.
    const tail = TAIL_SQL.bind({ team_id: teamId });
    tails.set(teamId, tailOf({ rows: await tx.$queryRawUnsafe<Tail[]>(tail.text, ...tail.values) }));
  }
  const rows = chainRows(entries, tails);
  const insert = INSERT_SQL.bind({ rows: JSON.stringify(rows) });
  await tx.$executeRawUnsafe(insert.text, ...insert.values);
  return rows.map((row) => ({ seq: row.seq, hash: row.hash }));
}

/**
 * Takes the teams' audit-chain locks (in sorted order, like every chain writer) inside the
 * caller's transaction, before anything else the transaction appends to those chains. A check
 * made after this sees every row the chains will hold when it commits, so it cannot race another
 * writer (the run-start limits count a team's starts this way). Taking a lock twice is harmless.
 */
export async function lockAuditChains(tx: Tx, teamIds: readonly string[]): Promise<void> {
  for (const teamId of [...new Set(teamIds)].sort()) await lockChain(tx, teamId);
}

async function lockChain(tx: Tx, teamId: string): Promise<void> {
  const lock = AUDIT_LOCK_SQL.bind({ lock_key: auditLockKey(teamId) });
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
}

/**
 * The chain tails a writer last saw, per team. With them a batch is chained when it is handed over
 * (in call order, onto the batch before it even while that one is in flight) and written in one
 * round trip whose INSERT first checks, under the team's lock, that each tail is still the one it
 * was chained onto. A batch whose tail moved (another writer, or a batch before it that failed or
 * was re-chained) writes nothing and learns the true tails in the same round trip.
 */
export type AuditTails = Map<string, Tail>;

/** The batch chained onto `expected`; `tails`, if given, then remembers where the batch leaves each chain. */
function chainOnto(entries: readonly AuditEntry[], expected: ReadonlyMap<string, Tail>, tails: AuditTails | undefined): BatchRow[] {
  const rows = chainRows(entries, new Map(expected));
  if (tails) for (const row of rows) tails.set(row.teamId, { seq: row.seq, hash: row.hash });
  return rows;
}

/**
 * {@link appendAuditBatch} in a transaction of its own on a `pg` pool. With `tails` known for every
 * team of the batch, one round trip: BEGIN, the teams' locks, an INSERT that writes nothing unless
 * every tail is the expected one, each team's tail read back, COMMIT. When a tail had moved, the
 * batch is chained onto the tails read back and sent the same way once more. Otherwise (or if it
 * moved again), two round trips: BEGIN with every team's lock and tail read (separate statements
 * of one simple query, so each tail read takes its snapshot after its lock), then the INSERT with
 * COMMIT. The worker audits a policy decision on every tool call, so this sits on the hot path of
 * every turn.
 */
export async function appendAuditBatchPg(pool: PgPool, entries: readonly AuditEntry[], tails?: AuditTails): Promise<Array<{ seq: number; hash: string }>> {
  if (entries.length === 0) return [];
  const teams = teamsOf(entries);
  const result = (rows: readonly BatchRow[]) => rows.map((row) => ({ seq: row.seq, hash: row.hash }));
  // Chained now, before waiting for a connection, so batches chain in the order they were handed over.
  let expected = tails && teams.every((teamId) => tails.has(teamId)) ? new Map(teams.map((teamId) => [teamId, tails.get(teamId)!])) : null;
  let guarded = expected ? chainOnto(entries, expected, tails) : null;
  try {
    return await withClient(pool, async (client) => {
      // Simple queries of several statements, one round trip each: the parameters are written as
      // typed literals (the extended protocol carries one statement per round trip).
      const locks = teams.map((teamId) => AUDIT_LOCK_SQL.inline({ lock_key: auditLockKey(teamId) }));
      const tailReads = teams.map((teamId) => TAIL_SQL.inline({ team_id: teamId }));
      for (let attempt = 0; attempt < 2 && expected && guarded; attempt++) {
        const checks = JSON.stringify([...expected].map(([teamId, tail]) => ({ teamId, seq: tail.seq, hash: tail.hash })));
        const insert = GUARDED_INSERT_SQL.inline({ rows: JSON.stringify(guarded), expected_tails: checks });
        const results = (await client.query(['BEGIN', ...locks, insert, ...tailReads, 'COMMIT'].join(';\n'))) as unknown as Array<{
          rowCount: number | null;
          rows: Tail[];
        }>;
        // Results come back per statement: BEGIN, the locks, the INSERT, the tail reads, COMMIT.
        if (results[1 + locks.length]!.rowCount === guarded.length) return result(guarded);
        // A tail had moved: nothing was written; chain onto the tails as they were under the lock.
        expected = new Map(teams.map((teamId, i) => [teamId, tailOf(results[2 + locks.length + i]!)]));
        guarded = chainOnto(entries, expected, tails);
      }
      const opened = (await client.query(['BEGIN', ...teams.flatMap((_, i) => [locks[i]!, tailReads[i]!])].join(';\n'))) as unknown as Array<{ rows: Tail[] }>;
      // Results come back per statement: BEGIN, then lock and tail for each team in order.
      const found = new Map(teams.map((teamId, i) => [teamId, tailOf(opened[2 + i * 2]!)]));
      const rows = chainOnto(entries, found, tails);
      await client.query(`${INSERT_SQL.inline({ rows: JSON.stringify(rows) })};\nCOMMIT`);
      return result(rows);
    });
  } catch (error) {
    // What was chained onto these tails may not have been written: ask Postgres next time.
    for (const teamId of teams) tails?.delete(teamId);
    throw error;
  }
}

/**
 * Audit rows a session's flush carries (runs/append-sql.ts, audit-chain.functions.sql), so a
 * decision's row commits in the statement that writes its event: chained onto the tails a writer
 * last saw, and written only if each team's tail is still `expected` under the team's lock.
 */
export interface CarriedAudit {
  rows: readonly BatchRow[];
  /** The tail each team's first row was chained onto. */
  expected: ReadonlyArray<{ teamId: string; seq: number; hash: string }>;
}

/**
 * `entries` chained onto the remembered `tails` for a flush to carry (and `tails` advanced past
 * them); null when a team's tail is not known yet, for the locked path to read it.
 */
export function chainForFlush(entries: readonly AuditEntry[], tails: AuditTails): CarriedAudit | null {
  if (entries.length === 0) return null;
  const teams = teamsOf(entries);
  if (!teams.every((teamId) => tails.has(teamId))) return null;
  const expected = teams.map((teamId) => ({ teamId, ...tails.get(teamId)! }));
  return { rows: chainOnto(entries, new Map(teams.map((teamId) => [teamId, tails.get(teamId)!])), tails), expected };
}

/** After carried rows were not written: forgets their teams' tails, so the next writer reads them. */
export function forgetCarried(carried: CarriedAudit, tails: AuditTails): void {
  for (const { teamId } of carried.expected) tails.delete(teamId);
}

/**
 * The carried rows of several flushes written by one statement, in batch order, as one chain per
 * team; null when none carries rows, or when they do not continue each other (chained while
 * another batch was in flight and then reordered): the statement then carries none, and each
 * flush's rows take the locked path.
 */
export function combineCarried(carried: ReadonlyArray<CarriedAudit | null>): CarriedAudit | null {
  const present = carried.filter((c): c is CarriedAudit => c !== null);
  if (present.length <= 1) return present[0] ?? null;
  const expected = new Map<string, Tail>();
  const last = new Map<string, Tail>();
  for (const c of present) {
    for (const tail of c.expected) {
      const before = last.get(tail.teamId);
      if (!before) expected.set(tail.teamId, { seq: tail.seq, hash: tail.hash });
      else if (before.seq !== tail.seq || before.hash !== tail.hash) return null;
    }
    for (const row of c.rows) last.set(row.teamId, { seq: row.seq, hash: row.hash });
  }
  return { rows: present.flatMap((c) => c.rows), expected: [...expected].map(([teamId, tail]) => ({ teamId, ...tail })) };
}

/** A tail read's result: the team's last row, or the chain's start when it has none. */
const tailOf = (result: { rows: Tail[] }): Tail => rowsOf(TAIL_SQL, result)[0] ?? { seq: 0, hash: GENESIS_HASH };

const TAIL_SQL = namedQuery({
  name: 'looplane_audit_tail',
  params: { team_id: param.text },
  text: 'SELECT seq, hash FROM "AuditLog" WHERE "teamId" = :team_id ORDER BY seq DESC LIMIT 1',
}).returns<Tail>();
const teamsOf = (entries: readonly AuditEntry[]) => [...new Set(entries.map((e) => e.teamId))].sort();

/** The rows of the batch, chained onto each team's tail in input order. */
function chainRows(entries: readonly AuditEntry[], tails: Map<string, Tail>): BatchRow[] {
  return entries.map((entry) => {
    const tail = tails.get(entry.teamId)!;
    const content = auditRowContent(entry, tail.seq + 1);
    const hash = chainHash(tail.hash, content);
    tails.set(entry.teamId, { seq: content.seq, hash });
    return { ...content, prevHash: tail.hash, hash };
  });
}

/**
 * One statement for all rows, from a JSON array (`:rows`); WITH ORDINALITY keeps the insertion
 * (and so the id) order of the input. `createdAt` is UTC wall time in a timestamp without zone, as
 * Prisma writes it. With `:expected_tails` (a JSON array of `{ teamId, seq, hash }`), nothing is
 * inserted unless each team's tail is the one given.
 */
function insertText(guard: string): string {
  return `INSERT INTO "AuditLog" ("teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash)
     SELECT r."teamId", r.seq, r."actorType"::"ActorType", r."actorId", r.action, r."targetType", r."targetId", r.data, r.ip,
            (r."createdAt" AT TIME ZONE 'UTC')::timestamp(3), r."prevHash", r.hash
     FROM ROWS FROM (jsonb_to_recordset(:rows) AS (
       "teamId" text, seq int, "actorType" text, "actorId" text, action text, "targetType" text, "targetId" text,
       data jsonb, ip text, "createdAt" timestamptz, "prevHash" text, hash text)) WITH ORDINALITY AS r(
       "teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash, ord)
     ${guard}
     ORDER BY r.ord`;
}

const INSERT_SQL = namedQuery({ name: 'looplane_audit_insert', params: { rows: param.jsonb }, text: insertText('') });

// GENESIS_HASH is a constant of the chain, written into the text once.
const GUARDED_INSERT_SQL = namedQuery({
  name: 'looplane_audit_guarded_insert',
  params: { rows: param.jsonb, expected_tails: param.jsonb },
  text: insertText(`WHERE NOT EXISTS (
         SELECT 1 FROM jsonb_to_recordset(:expected_tails) AS e("teamId" text, seq int, hash text)
         LEFT JOIN LATERAL (SELECT a.seq, a.hash FROM "AuditLog" a WHERE a."teamId" = e."teamId" ORDER BY a.seq DESC LIMIT 1) t ON true
         WHERE COALESCE(t.seq, 0) <> e.seq OR COALESCE(t.hash, '${GENESIS_HASH}') <> e.hash)`),
});
