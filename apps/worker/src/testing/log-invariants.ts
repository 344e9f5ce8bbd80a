import type { Db } from '@looplane/db';

/**
 * What must hold of any run's log, whatever crashed while it ran: per session, seq runs from the
 * fork point + 1 (1 for a root session) with no gap or duplicate; per run, event numbers are
 * 1..N, unique, and increase with seq in each session. Returns the problems found (empty: sound).
 */
export async function logProblems(db: Db, runId: string): Promise<string[]> {
  const events = await db.event.findMany({ where: { runId }, orderBy: { eventNo: 'asc' }, select: { sessionId: true, seq: true, eventNo: true } });
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { lastEventNo: true } });
  const problems: string[] = [];
  events.forEach((e, i) => {
    if (Number(e.eventNo) !== i + 1) problems.push(`event number ${e.eventNo} at position ${i + 1}`);
  });
  if (Number(run.lastEventNo) !== events.length) problems.push(`Run.lastEventNo is ${run.lastEventNo} for ${events.length} events`);
  const bySession = new Map<string, number[]>();
  for (const e of events) bySession.set(e.sessionId, [...(bySession.get(e.sessionId) ?? []), e.seq]);
  for (const [sessionId, seqs] of bySession) {
    const session = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { lastSeq: true, forkSeq: true } });
    // A branch inherits its parent's events up to the fork point and numbers its own after them.
    const first = (session.forkSeq ?? 0) + 1;
    // In event-number order, each session's seqs must be exactly first, first + 1, ...
    seqs.forEach((seq, i) => {
      if (seq !== first + i) problems.push(`session ${sessionId}: seq ${seq} where ${first + i} was expected`);
    });
    const last = first + seqs.length - 1;
    if (session.lastSeq !== last) problems.push(`session ${sessionId}: lastSeq ${session.lastSeq} for events up to ${last}`);
  }
  return problems;
}
