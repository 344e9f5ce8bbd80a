// What one soak session left in Postgres, per bucket of turns: how long the turns took (the
// worker's own event timestamps), the context the model was sent, compactions, and the bytes
// every row the turns wrote takes.
import type { PgPool } from '@looplane/db';

export interface BucketFigures {
  /** Turns [fromTurn, toTurn). */
  fromTurn: number;
  toTurn: number;
  /** From the `model.requested` of `fromTurn` to that of `toTurn` (the next bucket's first), per turn. */
  msPerTurn: number;
  /**
   * The mean of the middle 80% of the bucket's turns (each from its `model.requested` to the next):
   * what a turn costs without the few that a stall outside the session (another process on the
   * machine, the benchmark's own GC probe between buckets) made long.
   */
  msPerTurnTrimmed: number;
  p50: number;
  p95: number;
  /** `promptTokens` of the bucket's last `model.requested`, and the largest in the bucket. */
  contextTokensLast: number;
  contextTokensMax: number;
  /** `compaction.applied` events in the bucket. */
  compactions: number;
  events: number;
  /** Sum of `pg_column_size` of the rows: Event (by seq), AuditLog and BudgetEntry (by their time). */
  bytes: { events: number; audit: number; budgetEntries: number; total: number };
}

interface ModelRequest {
  seq: number;
  turn: number;
  prompt: number;
  at: string;
  ms: number;
}

/** Every turn's first `model.requested` of the session (a retried call is counted once), in order. */
async function modelRequests(pool: PgPool, sessionId: string): Promise<ModelRequest[]> {
  const found = await pool.query({
    text: `SELECT DISTINCT ON ((payload->>'turn')::int) seq, (payload->>'turn')::int AS turn, (payload->>'promptTokens')::int AS prompt,
        to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at, extract(epoch FROM "createdAt") * 1000 AS ms
      FROM "Event" WHERE "sessionId" = $1 AND type = 'model.requested' ORDER BY (payload->>'turn')::int, seq`,
    values: [sessionId],
  });
  return (found.rows as { seq: number; turn: number; prompt: number; at: string; ms: string }[]).map((r) => ({ ...r, ms: Number(r.ms) }));
}

/**
 * The figures of each bucket of `bucket` turns. Rows before the first bucket's first model call (the
 * run's start) count in the first bucket, rows after the last one's end (the final answer, the
 * run's end) in the last.
 */
export async function bucketFigures(
  pool: PgPool,
  sessionId: string,
  ledgerIds: string[],
  turns: number,
  bucket: number,
): Promise<{ buckets: BucketFigures[]; oneTurnTokens: number }> {
  const requests = await modelRequests(pool, sessionId);
  // What one turn adds to the prompt (its tool call and result): the median growth between turns.
  const growth = requests
    .slice(1)
    .map((r, i) => r.prompt - requests[i]!.prompt)
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  const oneTurnTokens = growth[Math.floor(growth.length / 2)] ?? 0;
  const at = (turn: number) => {
    const request = requests[turn];
    if (request?.turn !== turn) throw new Error(`the session has no model.requested for turn ${turn} (${requests.length} recorded)`);
    return request;
  };
  const bounds = [];
  for (let from = 0; from < turns; from += bucket) {
    const to = Math.min(turns, from + bucket);
    const first = from === 0;
    const last = to === turns;
    bounds.push({ from, to, start: at(from), end: at(to), first, last });
  }
  const found = await pool.query({
    text: `WITH b AS (SELECT * FROM unnest($2::int[], $3::int[], $4::timestamp[], $5::timestamp[]) WITH ORDINALITY AS b(s0, s1, t0, t1, i))
      SELECT b.i,
        (SELECT count(*)::int FROM "Event" e WHERE e."sessionId" = $1 AND e.seq >= b.s0 AND e.seq < b.s1) AS events,
        (SELECT count(*)::int FROM "Event" e WHERE e."sessionId" = $1 AND e.seq >= b.s0 AND e.seq < b.s1 AND e.type = 'compaction.applied') AS compactions,
        (SELECT coalesce(sum(pg_column_size(e.*)), 0)::bigint FROM "Event" e WHERE e."sessionId" = $1 AND e.seq >= b.s0 AND e.seq < b.s1) AS events_bytes,
        (SELECT coalesce(sum(pg_column_size(a.*)), 0)::bigint FROM "AuditLog" a WHERE a."createdAt" >= b.t0 AND a."createdAt" < b.t1) AS audit_bytes,
        (SELECT coalesce(sum(pg_column_size(x.*)), 0)::bigint FROM "BudgetEntry" x WHERE x."ledgerId" = ANY($6) AND x."createdAt" >= b.t0 AND x."createdAt" < b.t1) AS budget_bytes
      FROM b ORDER BY b.i`,
    values: [
      sessionId,
      bounds.map((b) => (b.first ? 0 : b.start.seq)),
      bounds.map((b) => (b.last ? 2 ** 31 - 1 : b.end.seq)),
      bounds.map((b) => (b.first ? '-infinity' : b.start.at)),
      bounds.map((b) => (b.last ? 'infinity' : b.end.at)),
      ledgerIds,
    ],
  });
  const rows = found.rows as { events: number; compactions: number; events_bytes: string; audit_bytes: string; budget_bytes: string }[];
  const buckets = bounds.map((b, i) => {
    const row = rows[i]!;
    const prompts = requests.slice(b.from, b.to).map((r) => r.prompt);
    const durations = requests
      .slice(b.from, b.to)
      .map((r, k) => requests[b.from + k + 1]!.ms - r.ms)
      .sort((x, y) => x - y);
    const middle = durations.slice(Math.floor(durations.length * 0.1), Math.ceil(durations.length * 0.9));
    const bytes = { events: Number(row.events_bytes), audit: Number(row.audit_bytes), budgetEntries: Number(row.budget_bytes) };
    return {
      fromTurn: b.from,
      toTurn: b.to,
      msPerTurn: (b.end.ms - b.start.ms) / (b.to - b.from),
      msPerTurnTrimmed: middle.reduce((x, y) => x + y, 0) / middle.length,
      p50: durations[Math.floor(durations.length / 2)]!,
      p95: durations[Math.min(durations.length - 1, Math.floor(durations.length * 0.95))]!,
      contextTokensLast: prompts.at(-1) ?? 0,
      contextTokensMax: Math.max(...prompts),
      compactions: row.compactions,
      events: row.events,
      bytes: { ...bytes, total: bytes.events + bytes.audit + bytes.budgetEntries },
    };
  });
  return { buckets, oneTurnTokens };
}

/** The tables a run writes to, as Postgres stores them (heap, indexes and TOAST, dead rows included). */
const WRITTEN_TABLES = ['Event', 'AuditLog', 'BudgetEntry', 'BudgetLedger', 'Session', 'Run'] as const;

/** `pg_total_relation_size` of each table the run writes to, bytes (the database holds this run only). */
export async function tableSizes(pool: PgPool): Promise<Record<string, number>> {
  const found = await pool.query({
    text: `SELECT t AS name, pg_total_relation_size(format('%I', t)::regclass)::bigint AS bytes FROM unnest($1::text[]) AS t`,
    values: [[...WRITTEN_TABLES]],
  });
  return Object.fromEntries((found.rows as { name: string; bytes: string }[]).map((r) => [r.name, Number(r.bytes)]));
}
