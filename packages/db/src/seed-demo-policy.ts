import { defaultPolicy, diffDocuments, parsePolicyDocument } from '@looplane/policy';
import type { Prisma } from './generated/prisma/client';
import type { Tx } from './audit/audit.repository';
import { appendAudit } from './audit/audit.repository';

const SYSTEM = { type: 'system', name: 'seed' } as const;
/** The one policy a team has (the API's TEAM_POLICY_NAME). */
const TEAM_POLICY_NAME = 'default';

/**
 * Gives the demo team a first saved policy version: the built-in default (an approver still
 * decides every push and pull request: its `deliver-needs-approval` rule) with `workspace.sources`
 * allowing the demo repositories, `sourcePattern`. Only for a team that has no policy row at all:
 * a policy an admin saved, or the built-in default an admin chose again, is never changed.
 */
export async function seedDemoPolicy(tx: Tx, teamId: string, sourcePattern: string): Promise<void> {
  if (await tx.policy.findFirst({ where: { teamId }, select: { id: true } })) return;
  const document = parsePolicyDocument({
    ...defaultPolicy,
    name: 'demo',
    description: `${defaultPolicy.description ?? ''} Runs may start from (and push to) the demo repositories under ${sourcePattern}.`.trim(),
    workspace: { sources: [sourcePattern] },
  });
  const comment = 'seeded: the built-in default, allowing the demo repositories';
  const policy = await tx.policy.create({ data: { teamId, name: TEAM_POLICY_NAME, activeVersion: 1 }, select: { id: true } });
  await tx.policyVersion.create({ data: { policyId: policy.id, version: 1, document: document as unknown as Prisma.InputJsonValue, comment } });
  const diff = diffDocuments(defaultPolicy, document);
  await appendAudit(tx, {
    teamId,
    actor: SYSTEM,
    action: 'policy.saved',
    targetType: 'policy',
    targetId: policy.id,
    data: {
      version: 1,
      previousVersion: 0,
      comment,
      rulesAdded: diff.rules.added.map((r) => r.rule.id),
      rulesRemoved: diff.rules.removed.map((r) => r.rule.id),
      rulesChanged: diff.rules.changed.map((r) => r.id),
      sectionsChanged: diff.sections.map((s) => s.path),
    },
  });
}
