import type { Db } from '@looplane/db';
import { apply, decodeEvent, forkBlocker, initialState } from '@looplane/engine';
import { ancestry, findTeamSession } from './sessions-ancestry';
import { approvalBlocker } from './sessions-fork.service';

/**
 * A branch's log as its timeline shows it: every event through its ancestry (inherited ones name
 * the session that wrote them), numbered by `seq` (what `sessions.fork` takes as `atEvent`), each
 * with why the branch cannot be forked right after it (null: "Fork from here" works). The log is
 * folded from the start to know that, so a page after `after` costs a full replay; fine for a
 * timeline, and exactly the check `sessions.fork` makes.
 */
export async function sessionEvents(db: Db, teamId: string, sessionId: string, after: number, limit: number) {
  const session = await findTeamSession(db, teamId, sessionId);
  const chain = await ancestry(db, session);
  const state = initialState();
  const events = [];
  links: for (const link of chain) {
    if (link.upTo <= link.from) continue;
    const rows = await db.event.findMany({
      where: { sessionId: link.sessionId, seq: { gt: link.from, lte: link.upTo } },
      orderBy: { seq: 'asc' },
      select: { sessionId: true, seq: true, eventNo: true, type: true, version: true, payload: true, createdAt: true },
    });
    for (const row of rows) {
      if (events.length >= limit) break links;
      const event = decodeEvent({ seq: row.seq, type: row.type, v: row.version, at: row.createdAt.toISOString(), payload: row.payload });
      apply(state, event);
      if (row.seq <= after) continue;
      events.push({
        sessionId: row.sessionId,
        seq: row.seq,
        eventNo: Number(row.eventNo),
        type: row.type,
        // As the engine read it (upcast, defaults applied): what every client decodes.
        version: event.v,
        payload: event.payload as unknown,
        createdAt: row.createdAt,
        inherited: row.sessionId !== session.id,
        forkBlocker: forkBlocker(state) ?? approvalBlocker(state),
      });
    }
  }
  return { sessionId: session.id, runId: session.runId, forkSeq: session.forkSeq, lastSeq: session.lastSeq, status: session.status, events };
}
