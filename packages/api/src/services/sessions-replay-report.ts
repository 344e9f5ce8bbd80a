import { modelSpendAfter, queryableOf, type Db, type ModelSpend } from '@looplane/db';
import { replayMarkerSchema, type ReplayDiverged, type ReplayMarker } from '@looplane/engine';
import type { ChainLink } from './sessions-ancestry';

/** A stored `Session.replay` as the marker it is (null for any other session, or a row that is not one). */
export function replayMarkerOf(value: unknown): ReplayMarker | null {
  if (value === null || value === undefined) return null;
  const parsed = replayMarkerSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
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
): Promise<{ spend: ModelSpend; replay: ReplayReport | null }> {
  const row = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { replay: true } });
  const marker = replayMarkerOf(row.replay);
  const [spend, replay] = await Promise.all([
    modelSpendAfter(queryableOf(db), chain, after),
    marker ? replayReport(db, sessionId, marker) : Promise.resolve(null),
  ]);
  return { spend, replay };
}
