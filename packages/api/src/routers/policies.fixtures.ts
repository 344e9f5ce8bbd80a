import type { Db } from '@looplane/db';
import type { TeamFixture } from '../testing/fixtures';

let made = 0;
const DRAFT = 'version: 1\nname: draft\ndefault: deny\nrules: []\n';

/** A new saved version of the team's policy (never active); `asShadow` also names it the shadow. */
async function shadowCandidate(db: Db, teamId: string, asShadow: boolean): Promise<number> {
  const policy = await db.policy.upsert({
    where: { teamId_name: { teamId, name: 'default' } },
    create: { teamId, name: 'default', activeVersion: 0 },
    update: {},
  });
  const last = await db.policyVersion.findFirst({ where: { policyId: policy.id }, orderBy: { version: 'desc' }, select: { version: true } });
  const version = (last?.version ?? 0) + 1;
  await db.policyVersion.create({ data: { policyId: policy.id, version, document: { version: 1, name: `shadow-${made++}`, default: 'allow', rules: [] } } });
  if (asShadow) await db.policy.update({ where: { id: policy.id }, data: { shadowVersion: version, shadowId: `matrix-${made++}` } });
  return version;
}

/** The authorization matrix's cases for the `policies` router. */
export function policyMatrix(db: () => Db) {
  return {
    'policies.get': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId }) },
    'policies.versions': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId }) },
    'policies.save': {
      access: 'admin',
      input: (fx: TeamFixture) => ({ teamId: fx.teamId, document: { version: 1, name: `matrix-${made++}`, default: 'deny', rules: [] } }),
    },
    'policies.validate': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId, document: DRAFT }) },
    'policies.simulate': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId, tool: 'shell', args: { command: 'rm -rf /' } }) },
    'policies.diff': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId, from: 0, to: 0 }) },
    'policies.backtest': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId, document: DRAFT, since: new Date(Date.now() - 86_400_000) }) },
    // A fresh saved version per call (never the active one), so each allowed set names a real shadow.
    'policies.setShadow': {
      access: 'admin',
      input: async (fx: TeamFixture) => ({ teamId: fx.teamId, version: await shadowCandidate(db(), fx.teamId, false) }),
    },
    // A shadow set before each call, so each allowed promotion has one to promote.
    'policies.promoteShadow': {
      access: 'admin',
      input: async (fx: TeamFixture) => {
        await shadowCandidate(db(), fx.teamId, true);
        return { teamId: fx.teamId };
      },
    },
    'policies.shadowDisagreements': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId, limit: 5 }) },
  } as const;
}
