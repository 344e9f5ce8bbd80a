import { loadSessionEvents, queryableOf, type Db, type LogLink, type SessionStatus, type Tx } from '@looplane/db';
import { workspaceCommitOf, type EngineEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';

type Client = Db | Tx;

/** A session of a run of the team, as the session services read it. */
export interface SessionRow {
  id: string;
  runId: string;
  parentId: string | null;
  forkSeq: number | null;
  lastSeq: number;
  status: SessionStatus;
  agentId: string | null;
  endpointId: string | null;
  title: string;
  workspaceCommit: string | null;
}

const sessionSelect = {
  id: true,
  runId: true,
  parentId: true,
  forkSeq: true,
  lastSeq: true,
  status: true,
  agentId: true,
  endpointId: true,
  title: true,
  workspaceCommit: true,
} as const;

/** A session of one of the team's runs; NOT_FOUND otherwise (another team's session is not told apart). */
export async function findTeamSession(db: Client, teamId: string, sessionId: string): Promise<SessionRow> {
  const session = await db.session.findFirst({ where: { id: sessionId, run: { teamId } }, select: sessionSelect });
  if (!session) throw new AppError('NOT_FOUND', 'No such session in this team');
  return session;
}

/**
 * One link of a session's log: events `(from, upTo]` of `sessionId`. A session's log is its
 * chain from the root, each ancestor contributing its own events up to where the next one forked.
 */
export type ChainLink = LogLink;

/**
 * The ancestry of a session, root first, with the seq range each link contributes (the same
 * reading as the worker's event store: a branch forked below its parent's own fork point inherits
 * less of the grandparent too).
 */
export async function ancestry(db: Client, session: SessionRow): Promise<ChainLink[]> {
  const chain: ChainLink[] = [{ sessionId: session.id, from: session.forkSeq ?? 0, upTo: session.lastSeq }];
  let current: { parentId: string | null; forkSeq: number | null } = session;
  while (current.parentId) {
    const parent = await db.session.findUnique({ where: { id: current.parentId }, select: { id: true, parentId: true, forkSeq: true } });
    if (!parent) throw new AppError('INTERNAL', `session ${current.parentId} is missing from a session's ancestry`);
    const upTo = Math.min(current.forkSeq ?? 0, chain[0]!.upTo);
    chain.unshift({ sessionId: parent.id, from: Math.min(parent.forkSeq ?? 0, upTo), upTo });
    current = parent;
  }
  return chain;
}

/** How many events two logs share from the start: the seq they diverge after (0: nothing shared). */
export function sharedPrefix(a: readonly ChainLink[], b: readonly ChainLink[]): number {
  let shared = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.sessionId !== y.sessionId) break;
    shared = Math.min(x.upTo, y.upTo);
    if (x.upTo !== y.upTo) break;
  }
  return shared;
}

// The services adapt their Prisma client to the repositories' `Queryable` with this (it lives with
// the repositories, in @looplane/db).

/** A session's whole log as the engine sees it (inherited events first), decoded. */
export function sessionLog(db: Client, sessionId: string): Promise<EngineEvent[]> {
  return loadSessionEvents(queryableOf(db), sessionId);
}

/**
 * The workspace commit a log is at after event `atSeq`: the last one an event recorded (a
 * mutating call's `tool.finished`, a `workspace.restored`), or null when nothing changed files
 * yet (the branch starts from an empty workspace, as its root did).
 */
export function commitAt(events: readonly EngineEvent[], atSeq: number): string | null {
  let commit: string | null = null;
  for (const event of events) {
    if (event.seq > atSeq) break;
    commit = workspaceCommitOf(event) ?? commit;
  }
  return commit;
}
