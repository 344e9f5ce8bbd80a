import { lastCommitIn, type Db, type Tx } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { queryableOf } from '@looplane/db';
import { ancestry, type ChainLink, type SessionRow } from './sessions-ancestry';

type Client = Db | Tx;

/**
 * The workspace commit a log is at after event `atSeq`: the last one recorded (a mutating call's
 * `tool.finished`, a `workspace.restored`), through the ancestry; null when nothing changed files
 * by then (the empty workspace). The same reading as `commitAt`, without loading the log: one
 * indexed query per chain link (newest link first, the first hit wins), each reading backwards
 * from the bound on (sessionId, seq) and stopping at the first match.
 */
export async function commitAtEvent(db: Client, chain: readonly ChainLink[], atSeq: number): Promise<string | null> {
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i]!;
    const commit = await lastCommitIn(queryableOf(db), { sessionId: link.sessionId, from: link.from, upTo: Math.min(link.upTo, atSeq) });
    if (commit) return commit;
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
