import type { Db } from '@looplane/db';
import { upcastStored } from '@looplane/events';
import { AppError } from '@looplane/shared';
import type { WorkspaceReader } from '@looplane/workspaces';
import { ancestry, findTeamSession, sharedPrefix, type ChainLink } from './sessions-ancestry';
import { headCommit } from './sessions-commits';
import { replaySide } from './sessions-replay-report';

/** Events listed per side after the divergence point (the rest is counted, not sent). */
const MAX_EVENTS = 500;
/** A file diff larger than this is cut (with `filesTruncated`). */
const MAX_DIFF_CHARS = 1_000_000;

interface DiffDeps {
  db: Db;
  workspaces: WorkspaceReader | null;
}

/**
 * A branch's events after `after`, through its ancestry, oldest first (at most {@link MAX_EVENTS});
 * `version` and `payload` through the engine's codec, as every event a client reads.
 */
interface BranchEvent {
  sessionId: string;
  seq: number;
  eventNo: number;
  type: string;
  version: number;
  payload: unknown;
  createdAt: Date;
}

async function eventsAfter(db: Db, chain: readonly ChainLink[], after: number): Promise<BranchEvent[]> {
  const events: BranchEvent[] = [];
  for (const link of chain) {
    const from = Math.max(link.from, after);
    if (link.upTo <= from || events.length >= MAX_EVENTS) continue;
    const rows = await db.event.findMany({
      where: { sessionId: link.sessionId, seq: { gt: from, lte: link.upTo } },
      orderBy: { seq: 'asc' },
      take: MAX_EVENTS - events.length,
      select: { sessionId: true, seq: true, eventNo: true, type: true, version: true, payload: true, createdAt: true },
    });
    events.push(...rows.map((r) => upcastStored({ ...r, eventNo: Number(r.eventNo) })));
  }
  return events;
}

/** The file diff between two branches' workspaces, or why there is none to show. */
async function fileDiff(db: Db, workspaces: WorkspaceReader | null, runId: string, a: readonly ChainLink[], b: readonly ChainLink[]) {
  const [headA, headB] = await Promise.all([headCommit(db, a), headCommit(db, b)]);
  const commits = { a: headA, b: headB };
  if (!headA && !headB) return { files: '', filesReason: 'neither branch changed a file', filesTruncated: false, commits };
  if (!workspaces)
    return { files: null, filesReason: 'session files are not readable by this server (it has no workspace store configured)', filesTruncated: false, commits };
  try {
    // A branch that changed nothing is compared as the empty workspace (the reader's null).
    const text = await workspaces.diff(runId, headA, headB);
    const cut = text.length > MAX_DIFF_CHARS;
    return { files: cut ? text.slice(0, MAX_DIFF_CHARS) : text, filesReason: null, filesTruncated: cut, commits };
  } catch (error) {
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) {
      return { files: null, filesReason: `the workspace files are not available: ${error.message}`, filesTruncated: false, commits };
    }
    throw error;
  }
}

/**
 * Compares two branches of one run: the seq they diverge after, each one's events after that
 * point (side by side in the dashboard), and the file diff from `a`'s workspace to `b`'s, each at
 * its last recorded commit. Without readable workspaces the events still come back, with
 * `files: null` and the reason. Each side also says what it spent after the divergence point and,
 * for a replay branch, its replay (marker, turns served from the log, the divergence report).
 */
export async function diffSessions(deps: DiffDeps, teamId: string, aId: string, bId: string) {
  const [a, b] = await Promise.all([findTeamSession(deps.db, teamId, aId), findTeamSession(deps.db, teamId, bId)]);
  if (a.runId !== b.runId) throw new AppError('BAD_REQUEST', 'The two sessions belong to different runs; compare branches of one run');
  const [chainA, chainB] = await Promise.all([ancestry(deps.db, a), ancestry(deps.db, b)]);
  const divergedAfter = sharedPrefix(chainA, chainB);
  const [eventsA, eventsB, files, sideA, sideB] = await Promise.all([
    eventsAfter(deps.db, chainA, divergedAfter),
    eventsAfter(deps.db, chainB, divergedAfter),
    fileDiff(deps.db, deps.workspaces, a.runId, chainA, chainB),
    replaySide(deps.db, a.id, chainA, divergedAfter),
    replaySide(deps.db, b.id, chainB, divergedAfter),
  ]);
  return {
    runId: a.runId,
    divergedAfter,
    a: {
      sessionId: a.id,
      status: a.status,
      title: a.title,
      lastSeq: a.lastSeq,
      events: eventsA,
      moreEvents: a.lastSeq - divergedAfter - eventsA.length,
      ...sideA,
    },
    b: {
      sessionId: b.id,
      status: b.status,
      title: b.title,
      lastSeq: b.lastSeq,
      events: eventsB,
      moreEvents: b.lastSeq - divergedAfter - eventsB.length,
      ...sideB,
    },
    ...files,
  };
}
