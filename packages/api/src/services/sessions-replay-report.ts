import { Prisma, type Db } from '@looplane/db';
import { replayMarkerSchema, type ReplayDiverged, type ReplayMarker } from '@looplane/engine';
import type { ChainLink } from './sessions-ancestry';

/** A stored `Session.replay` as the marker it is (null for any other session, or a row that is not one). */
export function replayMarkerOf(value: unknown): ReplayMarker | null {
  if (value === null || value === undefined) return null;
  const parsed = replayMarkerSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** What a branch spent on the model after `after` (its own turns, and inherited ones past the shared prefix). */
export interface BranchSpend {
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  modelCalls: number;
}

async function spendAfter(db: Db, chain: readonly ChainLink[], after: number): Promise<BranchSpend> {
  const links = chain.map((l) => Prisma.sql`(e."sessionId" = ${l.sessionId} AND e.seq > ${Math.max(l.from, after)} AND e.seq <= ${l.upTo})`);
  const rows = await db.$queryRaw<{ input: bigint | null; output: bigint | null; cost: bigint | null; calls: bigint }[]>`
    SELECT sum((e.payload->'usage'->>'inputTokens')::bigint) AS input, sum((e.payload->'usage'->>'outputTokens')::bigint) AS output,
      sum(COALESCE((e.payload->>'costMicros')::bigint, 0)) AS cost, count(*) FILTER (WHERE e.type = 'model.responded') AS calls
    FROM "Event" e
    WHERE e.type IN ('model.responded', 'model.failed', 'compaction.applied') AND (${Prisma.join(links, ' OR ')})`;
  const row = rows[0];
  return {
    inputTokens: Number(row?.input ?? 0),
    outputTokens: Number(row?.output ?? 0),
    costMicros: Number(row?.cost ?? 0),
    modelCalls: Number(row?.calls ?? 0),
  };
}

/** A replay branch's progress: turns that agreed (and results served from the log) and the divergence report, if any. */
export interface ReplayReport {
  marker: ReplayMarker;
  matchedTurns: number;
  servedResults: number;
  diverged: (ReplayDiverged & { seq: number }) | null;
}

async function replayReport(db: Db, sessionId: string, marker: ReplayMarker): Promise<ReplayReport> {
  const [matched, served, diverged] = await Promise.all([
    db.event.count({ where: { sessionId, type: 'replay.matched' } }),
    db.event.count({ where: { sessionId, type: { in: ['tool.finished', 'delegation.returned'] }, payload: { path: ['replayed'], equals: true } } }),
    db.event.findFirst({ where: { sessionId, type: 'replay.diverged' }, orderBy: { seq: 'asc' }, select: { seq: true, payload: true } }),
  ]);
  return { marker, matchedTurns: matched, servedResults: served, diverged: diverged ? { ...(diverged.payload as ReplayDiverged), seq: diverged.seq } : null };
}

/** One side of `sessions.diff`: its spend after the divergence point, and its replay report when it is a replay branch. */
export async function replaySide(
  db: Db,
  sessionId: string,
  chain: readonly ChainLink[],
  after: number,
): Promise<{ spend: BranchSpend; replay: ReplayReport | null }> {
  const row = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { replay: true } });
  const marker = replayMarkerOf(row.replay);
  const [spend, replay] = await Promise.all([spendAfter(db, chain, after), marker ? replayReport(db, sessionId, marker) : Promise.resolve(null)]);
  return { spend, replay };
}
