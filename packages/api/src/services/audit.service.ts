import { exportTeamAudit, verifyTeamAudit, type Db, type Prisma } from '@looplane/db';
import type { ListAuditInput } from '../routers/audit.schema';

/** One audit row as the Audit page shows it: who (resolved to an email or token name), what, when, and its chain fields. */
export interface AuditRowView {
  seq: number;
  createdAt: Date;
  actorType: 'user' | 'token' | 'system';
  actorId: string | null;
  actorLabel: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  data: unknown;
  ip: string | null;
  prevHash: string;
  hash: string;
}

function whereOf(teamId: string, input: ListAuditInput): Prisma.AuditLogWhereInput {
  const action = input.action?.endsWith('.') ? { startsWith: input.action } : input.action;
  return {
    teamId,
    ...(input.actorId ? { actorId: input.actorId } : {}),
    ...(input.actorType ? { actorType: input.actorType } : {}),
    ...(action ? { action } : {}),
    ...(input.targetType ? { targetType: input.targetType } : {}),
    ...(input.targetId ? { targetId: input.targetId } : {}),
    ...(input.from || input.to ? { createdAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lte: input.to } : {}) } } : {}),
    ...(input.cursor ? { seq: { lt: input.cursor } } : {}),
  };
}

/** Emails of the users and names of the tokens that appear as actors, for display. */
async function actorLabels(db: Db, teamId: string, rows: { actorType: string; actorId: string | null }[]): Promise<Map<string, string>> {
  const userIds = [...new Set(rows.filter((r) => r.actorType === 'user' && r.actorId).map((r) => r.actorId!))];
  const tokenIds = [...new Set(rows.filter((r) => r.actorType === 'token' && r.actorId).map((r) => r.actorId!))];
  const [users, tokens] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
    tokenIds.length
      ? db.apiToken.findMany({ where: { id: { in: tokenIds }, teamId }, select: { id: true, name: true, createdBy: { select: { email: true } } } })
      : [],
  ]);
  const labels = new Map<string, string>();
  for (const u of users) labels.set(`user:${u.id}`, u.email);
  for (const t of tokens) labels.set(`token:${t.id}`, `token "${t.name}"${t.createdBy ? ` of ${t.createdBy.email}` : ''}`);
  return labels;
}

/** A page of the team's audit rows, newest first; `nextCursor` continues below the last seq. */
export async function listAudit(db: Db, teamId: string, input: ListAuditInput): Promise<{ rows: AuditRowView[]; nextCursor: number | null }> {
  const rows = await db.auditLog.findMany({ where: whereOf(teamId, input), orderBy: { seq: 'desc' }, take: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  const labels = await actorLabels(db, teamId, page);
  return {
    rows: page.map((r) => ({
      seq: r.seq,
      createdAt: r.createdAt,
      actorType: r.actorType,
      actorId: r.actorId,
      actorLabel: labels.get(`${r.actorType}:${r.actorId}`) ?? r.actorId ?? r.actorType,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      data: r.data,
      ip: r.ip,
      prevHash: r.prevHash,
      hash: r.hash,
    })),
    nextCursor: rows.length > input.limit ? page[page.length - 1]!.seq : null,
  };
}

/** Walks the team's whole chain; on a break, names the first broken row (seq) and why. */
export async function verifyAudit(db: Db, teamId: string) {
  const result = await verifyTeamAudit(db, teamId);
  return result.ok
    ? { ok: true as const, rows: result.rows, headHash: result.headHash }
    : { ok: false as const, rows: result.rows, brokenSeq: result.broken.seq, position: result.broken.position, reason: result.broken.reason };
}

/**
 * The whole chain as JSON Lines (header line, then one line per row), returned as text in one
 * response. Chains of up to a few hundred thousand rows fit comfortably; `looplane audit verify`
 * checks the file offline.
 */
export async function exportAudit(db: Db, teamId: string) {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { slug: true } });
  const exported = await exportTeamAudit(db, teamId);
  const stamp = new Date().toISOString().slice(0, 10);
  return { filename: `looplane-audit-${team.slug}-${stamp}.jsonl`, ...exported };
}
