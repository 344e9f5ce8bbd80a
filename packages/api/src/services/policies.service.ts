import { appendAudit, lockTeamPolicy, type AuditActor, type Db, type Prisma } from '@looplane/db';
import { defaultPolicy, diffDocuments, parsePolicyDocument, validatePolicyDocument, type PolicyDocument } from '@looplane/policy';
import { AppError } from '@looplane/shared';
import { recentToolCalls, redecideRecent } from './policies-redecide';

/**
 * A team has one policy, named `default`; its `activeVersion` is what the worker enforces. A team
 * that never saved one runs on the built-in default policy, shown as version 0.
 */
export const TEAM_POLICY_NAME = 'default';

export interface PolicyVersionView {
  version: number;
  document: PolicyDocument;
  comment: string;
  createdAt: Date | null;
  createdBy: string | null;
  builtin: boolean;
}

const BUILTIN: PolicyVersionView = { version: 0, document: defaultPolicy, comment: 'built-in default policy', createdAt: null, createdBy: null, builtin: true };

async function teamPolicy(db: Db | Prisma.TransactionClient, teamId: string) {
  return db.policy.findUnique({ where: { teamId_name: { teamId, name: TEAM_POLICY_NAME } }, select: { id: true, activeVersion: true } });
}

/** A stored version; documents were validated when saved and are parsed again so the type is earned. */
async function loadVersion(db: Db | Prisma.TransactionClient, teamId: string, version: number): Promise<PolicyVersionView> {
  if (version === 0) return BUILTIN;
  const policy = await teamPolicy(db, teamId);
  const row = policy ? await db.policyVersion.findUnique({ where: { policyId_version: { policyId: policy.id, version } }, include: { policy: false } }) : null;
  if (!row) throw new AppError('NOT_FOUND', `This team's policy has no version ${version}`);
  const creator = row.createdById ? await db.user.findUnique({ where: { id: row.createdById }, select: { email: true } }) : null;
  return {
    version,
    document: parsePolicyDocument(row.document),
    comment: row.comment,
    createdAt: row.createdAt,
    createdBy: creator?.email ?? null,
    builtin: false,
  };
}

/** The active version and its document (version 0: the built-in default). */
export async function getActivePolicy(db: Db, teamId: string): Promise<PolicyVersionView & { active: true }> {
  const policy = await teamPolicy(db, teamId);
  return { ...(await loadVersion(db, teamId, policy?.activeVersion ?? 0)), active: true };
}

/** Every version ever saved, newest first, then the built-in default; each says whether it is active. */
export async function listPolicyVersions(db: Db, teamId: string) {
  const policy = await teamPolicy(db, teamId);
  const rows = policy
    ? await db.policyVersion.findMany({
        where: { policyId: policy.id },
        orderBy: { version: 'desc' },
        select: { version: true, comment: true, createdAt: true, createdById: true },
      })
    : [];
  const creatorIds = [...new Set(rows.map((r) => r.createdById).filter((id): id is string => id !== null))];
  const users = creatorIds.length ? await db.user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, email: true } }) : [];
  const email = new Map(users.map((u) => [u.id, u.email]));
  const active = policy?.activeVersion ?? 0;
  return [
    ...rows.map((r) => ({
      version: r.version,
      comment: r.comment,
      createdAt: r.createdAt as Date | null,
      createdBy: r.createdById ? (email.get(r.createdById) ?? null) : null,
      active: r.version === active,
      builtin: false,
    })),
    { version: 0, comment: BUILTIN.comment, createdAt: null, createdBy: null, active: active === 0, builtin: true },
  ];
}

/**
 * Saves a new immutable version and makes it active, with a `policy.saved` audit row in the same
 * transaction. Returns the version and the team's recent real tool calls that it decides
 * differently from the version it replaced.
 */
export async function savePolicy(
  db: Db,
  actor: AuditActor & { userId: string },
  teamId: string,
  input: { document: PolicyDocument; comment: string },
  ip: string | null,
) {
  const saved = await db.$transaction(async (tx) => {
    // Two admins saving at once get consecutive versions, never the same number.
    await lockTeamPolicy(tx, teamId);
    const policy =
      (await teamPolicy(tx, teamId)) ??
      (await tx.policy.create({ data: { teamId, name: TEAM_POLICY_NAME, activeVersion: 0 }, select: { id: true, activeVersion: true } }));
    const previous = await loadVersion(tx, teamId, policy.activeVersion);
    const last = await tx.policyVersion.findFirst({ where: { policyId: policy.id }, orderBy: { version: 'desc' }, select: { version: true } });
    const version = (last?.version ?? 0) + 1;
    const row = await tx.policyVersion.create({
      data: { policyId: policy.id, version, document: input.document as unknown as Prisma.InputJsonValue, comment: input.comment, createdById: actor.userId },
    });
    await tx.policy.update({ where: { id: policy.id }, data: { activeVersion: version } });
    const diff = diffDocuments(previous.document, input.document);
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'policy.saved',
      targetType: 'policy',
      targetId: policy.id,
      data: {
        version,
        previousVersion: previous.version,
        comment: input.comment,
        rulesAdded: diff.rules.added.map((r) => r.rule.id),
        rulesRemoved: diff.rules.removed.map((r) => r.rule.id),
        rulesChanged: diff.rules.changed.map((r) => r.id),
        sectionsChanged: diff.sections.map((s) => s.path),
      },
    });
    return { version, createdAt: row.createdAt, previous };
  });
  const calls = await recentToolCalls(db, teamId);
  return {
    version: saved.version,
    previousVersion: saved.previous.version,
    createdAt: saved.createdAt,
    checkedCalls: calls.length,
    redecided: redecideRecent(saved.previous.document, input.document, calls),
  };
}

/** Issues for the editor, with line and column; never throws for a bad document. */
export function validatePolicyText(text: string) {
  const result = validatePolicyDocument(text);
  return result.ok ? { ok: true as const, issues: [] } : { ok: false as const, issues: result.issues };
}

/** What changed from version `from` to version `to` (0: the built-in default). */
export async function diffPolicyVersions(db: Db, teamId: string, from: number, to: number) {
  const [before, after] = await Promise.all([loadVersion(db, teamId, from), loadVersion(db, teamId, to)]);
  return { from, to, diff: diffDocuments(before.document, after.document) };
}
