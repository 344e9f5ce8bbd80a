import { randomUUID } from 'node:crypto';
import { appendAudit, lockTeamPolicy, type AuditActor, type Db, type Prisma } from '@looplane/db';
import { defaultPolicy, diffDocuments, parsePolicyDocument, type PolicyDocument } from '@looplane/policy';
import { AppError } from '@looplane/shared';
import { recentToolCalls, redecideRecent } from './policies-redecide';
import { TEAM_POLICY_NAME } from './policies.service';

/**
 * The shadow policy: a saved version the worker decides every live call under as well, without
 * enforcing it, recording each call it decides otherwise (apps/worker ports/shadow-disagreements).
 * Setting, clearing and promoting it are admin actions, each an audit row in the transaction of
 * the change; a fresh `shadowId` per setting tells its disagreements from an earlier shadow's.
 */

type Tx = Prisma.TransactionClient;
type Person = AuditActor & { userId: string };

/**
 * The team's policy row under the policy lock, so saves, shadows and promotions never interleave.
 * A team that never saved a policy has none (and only version 0, which is then active).
 */
async function lockedPolicy(tx: Tx, teamId: string) {
  await lockTeamPolicy(tx, teamId);
  return tx.policy.findUnique({ where: { teamId_name: { teamId, name: TEAM_POLICY_NAME } } });
}

async function documentOf(tx: Tx, policyId: string, version: number): Promise<PolicyDocument | null> {
  if (version === 0) return defaultPolicy;
  const row = await tx.policyVersion.findUnique({ where: { policyId_version: { policyId, version } }, select: { document: true } });
  return row ? parsePolicyDocument(row.document) : null;
}

/** Names saved version `version` as the team's shadow (0: the built-in default), or clears it (null). */
export async function setShadow(db: Db, actor: Person, teamId: string, version: number | null, ip: string | null) {
  return db.$transaction(async (tx) => {
    const policy = await lockedPolicy(tx, teamId);
    if (!policy) {
      if (version === null) return { version: null, changed: false };
      throw version === 0
        ? new AppError('BAD_REQUEST', 'Version 0 is the active version; a shadow is another version to compare with it')
        : new AppError('NOT_FOUND', `This team's policy has no version ${version}`);
    }
    const previous = policy.shadowVersion;
    if (version === null) {
      if (previous === null) return { version: null, changed: false };
      await tx.policy.update({ where: { id: policy.id }, data: { shadowVersion: null, shadowId: null, shadowSetAt: null, shadowSetById: null } });
      await appendAudit(tx, {
        teamId,
        actor,
        ip,
        action: 'policy.shadow_cleared',
        targetType: 'policy',
        targetId: policy.id,
        data: { previousShadowVersion: previous, shadowId: policy.shadowId },
      });
      return { version: null, changed: true };
    }
    if (version === policy.activeVersion)
      throw new AppError('BAD_REQUEST', `Version ${version} is the active version; a shadow is another version to compare with it`);
    if (!(await documentOf(tx, policy.id, version))) throw new AppError('NOT_FOUND', `This team's policy has no version ${version}`);
    if (version === previous) return { version, changed: false };
    const shadowId = randomUUID();
    await tx.policy.update({ where: { id: policy.id }, data: { shadowVersion: version, shadowId, shadowSetAt: new Date(), shadowSetById: actor.userId } });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'policy.shadow_set',
      targetType: 'policy',
      targetId: policy.id,
      data: { version, previousShadowVersion: previous, activeVersion: policy.activeVersion, shadowId },
    });
    return { version, changed: true };
  });
}

/**
 * Makes the shadow version the active one and clears the shadow, in one transaction with a
 * `policy.shadow_promoted` audit row that says what changed (as `policy.saved` does). Returns,
 * like a save, the team's recent real tool calls the new active version decides differently.
 */
export async function promoteShadow(db: Db, actor: Person, teamId: string, ip: string | null) {
  const promoted = await db.$transaction(async (tx) => {
    const policy = await lockedPolicy(tx, teamId);
    if (!policy || policy.shadowVersion === null) throw new AppError('BAD_REQUEST', 'No shadow version is set: set one with policies.setShadow first');
    const version = policy.shadowVersion;
    const [before, after] = await Promise.all([documentOf(tx, policy.id, policy.activeVersion), documentOf(tx, policy.id, version)]);
    if (!after) throw new AppError('NOT_FOUND', `This team's policy has no version ${version}`);
    const previous = before ?? defaultPolicy;
    await tx.policy.update({
      where: { id: policy.id },
      data: { activeVersion: version, shadowVersion: null, shadowId: null, shadowSetAt: null, shadowSetById: null },
    });
    const diff = diffDocuments(previous, after);
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'policy.shadow_promoted',
      targetType: 'policy',
      targetId: policy.id,
      data: {
        version,
        previousVersion: policy.activeVersion,
        shadowId: policy.shadowId,
        rulesAdded: diff.rules.added.map((r) => r.rule.id),
        rulesRemoved: diff.rules.removed.map((r) => r.rule.id),
        rulesChanged: diff.rules.changed.map((r) => r.id),
        sectionsChanged: diff.sections.map((s) => s.path),
      },
    });
    return { version, previousVersion: policy.activeVersion, previous, after };
  });
  const calls = await recentToolCalls(db, teamId);
  return {
    version: promoted.version,
    previousVersion: promoted.previousVersion,
    checkedCalls: calls.length,
    redecided: redecideRecent(promoted.previous, promoted.after, calls),
  };
}

/**
 * The current shadow (or null) with the number of calls it has disagreed on since it was set,
 * and those calls newest first, `limit` at a time (`cursor`: the last id of the page before).
 */
export async function shadowDisagreements(db: Db, teamId: string, input: { cursor?: string; limit: number }) {
  const policy = await db.policy.findUnique({ where: { teamId_name: { teamId, name: TEAM_POLICY_NAME } } });
  if (!policy || policy.shadowVersion === null || policy.shadowId === null) return { shadow: null, count: 0, items: [], nextCursor: null };
  const where = { teamId, shadowId: policy.shadowId };
  const [count, rows, setBy] = await Promise.all([
    db.policyShadowDisagreement.count({ where }),
    db.policyShadowDisagreement.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: input.limit + 1,
      ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
    }),
    policy.shadowSetById ? db.user.findUnique({ where: { id: policy.shadowSetById }, select: { email: true } }) : null,
  ]);
  if (input.cursor && rows.length === 0 && !(await db.policyShadowDisagreement.findFirst({ where: { ...where, id: input.cursor }, select: { id: true } }))) {
    throw new AppError('BAD_REQUEST', 'cursor: not a disagreement of the current shadow');
  }
  const page = rows.slice(0, input.limit);
  return {
    shadow: { version: policy.shadowVersion, activeVersion: policy.activeVersion, setAt: policy.shadowSetAt, setBy: setBy?.email ?? null },
    count,
    items: page.map((r) => ({
      id: r.id,
      runId: r.runId,
      sessionId: r.sessionId,
      callId: r.callId,
      seq: r.seq,
      tool: r.tool,
      createdAt: r.createdAt,
      active: { version: r.activeVersion, outcome: r.activeOutcome, ruleId: r.activeRuleId },
      shadow: { version: r.shadowVersion, outcome: r.shadowOutcome, ruleId: r.shadowRuleId },
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}
