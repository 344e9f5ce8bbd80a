import type { Db, Prisma } from '@looplane/db';
import { breakerTripSchema, heldEffectSchema, type BreakerTrip, type HeldEffect } from '@looplane/engine';
import { AppError, roleAtLeast, type Role } from '@looplane/shared';
import type { ApprovalStatus, ListApprovalsInput } from '../routers/approvals.schema';

/** Who is looking: the role they hold in the team and the person behind the request. */
export interface Viewer {
  role: Role;
  userId: string;
}

const approvalSelect = {
  id: true,
  status: true,
  kind: true,
  runId: true,
  sessionId: true,
  requestSeq: true,
  toolCallId: true,
  tool: true,
  args: true,
  editedArgs: true,
  held: true,
  risk: true,
  policyRuleId: true,
  policyVersionId: true,
  graphEdgeId: true,
  requiredRole: true,
  fourEyes: true,
  requestedById: true,
  instructedByIds: true,
  decidedById: true,
  decidedAt: true,
  comment: true,
  expiresAt: true,
  expiryOutcome: true,
  escalateAt: true,
  escalateToRole: true,
  createdAt: true,
  run: { select: { goal: true, status: true, agent: { select: { id: true, name: true } } } },
} satisfies Prisma.ApprovalSelect;

/** A stored held result, or null (other kinds; a row that does not parse shows as none). */
function heldEffect(value: unknown): HeldEffect | null {
  const parsed = heldEffectSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A breaker's numbers from its approval.requested event, or null (other kinds). */
function breakerTrip(value: unknown): BreakerTrip | null {
  const parsed = breakerTripSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

type ApprovalRow = Prisma.ApprovalGetPayload<{ select: typeof approvalSelect }>;

/**
 * Why the viewer may not decide this approval, or null when they may. Four-eyes keeps out everyone
 * whose instruction the call follows from (`instructedByIds`: the run's creator, fork and resume
 * authors, message senders, whoever edited a call's arguments on the lineage, the authors of the
 * agent template the run runs with), and `requestedById` for rows opened before that list was kept.
 */
export function decideBlocker(
  row: Pick<ApprovalRow, 'status' | 'requiredRole' | 'fourEyes' | 'requestedById' | 'instructedByIds'>,
  viewer: Viewer,
): string | null {
  if (row.status !== 'pending') return `it is already ${row.status}`;
  if (!roleAtLeast(viewer.role, 'approver')) return 'deciding needs the approver role';
  if (!roleAtLeast(viewer.role, row.requiredRole)) return `this approval needs the ${row.requiredRole} role; you are ${viewer.role}`;
  if (row.fourEyes && (row.requestedById === viewer.userId || (row.instructedByIds ?? []).includes(viewer.userId))) {
    return 'four-eyes: the call follows from your own instruction (the run, a fork, a resume or a message of yours, arguments you edited, or the agent template you wrote), so another person must decide it';
  }
  return null;
}

/** The approval as the inbox shows it: the exact call, who asked, why, and whether the viewer may decide. */
async function present(db: Db, rows: ApprovalRow[], viewer: Viewer) {
  const userIds = [...new Set(rows.flatMap((r) => [r.requestedById, r.decidedById]).filter((id): id is string => !!id))];
  const users = new Map((await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, name: true } })).map((u) => [u.id, u]));
  // The reason is in the approval.requested event (the row keeps the call, the event the words).
  const requests = rows.length
    ? await db.event.findMany({
        where: { OR: rows.map((r) => ({ sessionId: r.sessionId, seq: r.requestSeq })) },
        select: { sessionId: true, seq: true, payload: true },
      })
    : [];
  const reasons = new Map(requests.map((e) => [`${e.sessionId}:${e.seq}`, (e.payload as { reason?: string }).reason ?? null]));
  const breakers = new Map(requests.map((e) => [`${e.sessionId}:${e.seq}`, breakerTrip((e.payload as { breaker?: unknown }).breaker)]));
  return rows.map(({ run, ...row }) => {
    const blocker = decideBlocker(row, viewer);
    return {
      ...row,
      args: row.args as Record<string, unknown>,
      editedArgs: row.editedArgs as Record<string, unknown> | null,
      // kind effect: what the call changed (its diff is approvals.diff).
      held: heldEffect(row.held),
      reason: reasons.get(`${row.sessionId}:${row.requestSeq}`) ?? null,
      // kind breaker: which breaker paused the session, with its numbers.
      breaker: breakers.get(`${row.sessionId}:${row.requestSeq}`) ?? null,
      run: { id: row.runId, goal: run.goal, status: run.status },
      agent: run.agent,
      requestedBy: row.requestedById ? (users.get(row.requestedById) ?? null) : null,
      decidedBy: row.decidedById ? (users.get(row.decidedById) ?? null) : null,
      canDecide: blocker === null,
      blocker,
    };
  });
}

type ApprovalItem = Awaited<ReturnType<typeof present>>[number];

/** A keyset position: the phase (pending rows first, then the rest), then createdAt desc, id desc. */
interface Cursor {
  pending: boolean;
  at: Date;
  id: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.pending ? 'p' : 'o'}|${cursor.at.toISOString()}|${cursor.id}`, 'utf8').toString('base64url');
}

function decodeCursor(value: string): Cursor {
  const bad = new AppError('BAD_REQUEST', 'cursor: not a cursor returned by approvals.list');
  if (!/^[A-Za-z0-9_-]+$/.test(value)) throw bad;
  const [phase, at, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || (phase !== 'p' && phase !== 'o') || !at || !id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw bad;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw bad;
  return { pending: phase === 'p', at: date, id };
}

const after = (cursor: Cursor | null): Prisma.ApprovalWhereInput =>
  cursor ? { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] } : {};

/**
 * The team's approvals, newest first, pending ones before all others when no status is given;
 * keyset-paginated (`nextCursor` continues after the last row).
 */
export async function listApprovals(db: Db, teamId: string, input: ListApprovalsInput, viewer: Viewer) {
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  const base: Prisma.ApprovalWhereInput = { teamId, ...(input.runId ? { runId: input.runId } : {}) };
  const page = (status: Prisma.ApprovalWhereInput['status'], from: Cursor | null, take: number) =>
    db.approval.findMany({ where: { ...base, status, ...after(from) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take, select: approvalSelect });
  const want = input.limit + 1;
  let rows: ApprovalRow[];
  if (input.status) {
    rows = await page(input.status, cursor, want);
  } else {
    rows = !cursor || cursor.pending ? await page('pending', cursor, want) : [];
    if (rows.length < want) rows = rows.concat(await page({ not: 'pending' }, cursor && !cursor.pending ? cursor : null, want - rows.length));
  }
  const more = rows.length > input.limit;
  const items = rows.slice(0, input.limit);
  const last = items[items.length - 1];
  return {
    items: await present(db, items, viewer),
    nextCursor: more && last ? encodeCursor({ pending: last.status === 'pending', at: last.createdAt, id: last.id }) : null,
  };
}

/** One approval of the team (NOT_FOUND for another team's). */
export async function getApproval(db: Db, teamId: string, approvalId: string, viewer: Viewer): Promise<ApprovalItem> {
  const row = await db.approval.findFirst({ where: { id: approvalId, teamId }, select: approvalSelect });
  if (!row) throw new AppError('NOT_FOUND', 'No such approval in this team');
  const [item] = await present(db, [row], viewer);
  return item!;
}

/** How many approvals of the team wait for a decision. */
export function pendingCount(db: Db, teamId: string): Promise<number> {
  return db.approval.count({ where: { teamId, status: 'pending' satisfies ApprovalStatus } });
}
