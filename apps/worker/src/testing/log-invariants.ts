import type { Db } from '@looplane/db';

/**
 * What must hold of any run's log, whatever crashed while it ran: per session, seq is 1..n with
 * no gap or duplicate; per run, event numbers are 1..N, unique, and increase with seq in each
 * session. Returns the problems found (empty: the log is sound).
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
    // In event-number order, each session's seqs must be exactly 1, 2, 3, ...
    seqs.forEach((seq, i) => {
      if (seq !== i + 1) problems.push(`session ${sessionId}: seq ${seq} where ${i + 1} was expected`);
    });
    const session = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { lastSeq: true } });
    if (session.lastSeq !== seqs.length) problems.push(`session ${sessionId}: lastSeq ${session.lastSeq} for ${seqs.length} events`);
  }
  return problems;
}
