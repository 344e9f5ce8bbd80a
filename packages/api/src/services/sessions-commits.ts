import type { Db, Tx } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { ancestry, type ChainLink, type SessionRow } from './sessions-ancestry';

type Client = Db | Tx;

/**
 * The workspace commit a log is at after event `atSeq`: the last `tool.finished` that recorded a
 * commit, through the ancestry; null when no call changed files by then (the empty workspace).
 * The same reading as `commitAt`, without loading the log: one indexed query per chain link
 * (newest link first, the first hit wins), each reading backwards from the bound on
 * (sessionId, seq) and stopping at the first match.
 */
export async function commitAtEvent(db: Client, chain: readonly ChainLink[], atSeq: number): Promise<string | null> {
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i]!;
    const upTo = Math.min(link.upTo, atSeq);
    if (upTo <= link.from) continue;
    const rows = await db.$queryRaw<{ commit: string }[]>`
      SELECT payload->>'commit' AS "commit" FROM "Event"
      WHERE "sessionId" = ${link.sessionId} AND seq > ${link.from} AND seq <= ${upTo}
        AND type = 'tool.finished' AND jsonb_typeof(payload->'commit') = 'string'
      ORDER BY seq DESC LIMIT 1`;
    if (rows[0]) return rows[0].commit;
  }
  return null;
}

/** The last commit of a branch's whole log (null: no file changed yet). */
export function headCommit(db: Client, chain: readonly ChainLink[]): Promise<string | null> {
  return commitAtEvent(db, chain, chain[chain.length - 1]?.upTo ?? 0);
}

/** Where in a session's log its files are read: the event and the commit recorded by then. */
export interface WorkspacePoint {
  atEvent: number;
  commit: string | null;
}

/**
 * The commit of a session at event `atEvent` of its log (its seq, as the run page shows it,
 * counting inherited events); without `atEvent`, at its latest committed event. An event outside
 * the log is BAD_REQUEST naming the range.
 */
export async function workspacePoint(db: Client, session: SessionRow, atEvent: number | undefined): Promise<WorkspacePoint> {
  if (atEvent !== undefined && (atEvent < 1 || atEvent > session.lastSeq)) {
    throw new AppError(
      'BAD_REQUEST',
      session.lastSeq === 0
        ? `Session ${session.id} has no committed events yet; leave atEvent out to read its (empty) workspace`
        : `Session ${session.id} has ${session.lastSeq} committed event(s); atEvent must be between 1 and ${session.lastSeq}`,
    );
  }
  const at = atEvent ?? session.lastSeq;
  return { atEvent: at, commit: await commitAtEvent(db, await ancestry(db, session), at) };
}

/** The server's workspace reader; PRECONDITION_FAILED when it has none (files are then not served here). */
export function requireReader(workspaces: WorkspaceReader | null | undefined): WorkspaceReader {
  if (!workspaces) throw new AppError('PRECONDITION_FAILED', 'Session files are not readable on this server: it has no workspace store configured');
  return workspaces;
}
