import type { Db } from '@looplane/db';
import type { TeamFixture } from '../testing/fixtures';

let made = 0;

/** A trigger of the team that starts runs of `agentId`, straight in the database (its secret sealed elsewhere: these tests never deliver). */
export async function triggerOf(db: Db, teamId: string, agentId: string): Promise<string> {
  const row = await db.trigger.create({
    data: {
      teamId,
      name: `matrix-trigger-${made++}`,
      target: 'start_run',
      agentId,
      goalTemplate: 'Handle {{payload.text}}',
      auth: 'standard_webhooks',
      secretCiphertext: 'v1.sealed-elsewhere',
    },
  });
  return row.id;
}

/** A name no other trigger of a test has. */
export const triggerName = () => `trigger-${made++}-${Date.now().toString(36)}`;

/** The authorization matrix's cases for the `triggers` router: viewers read, admins change; each call on a trigger of its own. */
export function triggerMatrix(db: () => Db, agentId: () => string) {
  const own = async (fx: TeamFixture) => ({ teamId: fx.teamId, triggerId: await triggerOf(db(), fx.teamId, agentId()) });
  return {
    'triggers.list': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId }) },
    'triggers.get': { access: 'viewer', input: own },
    'triggers.deliveries': { access: 'viewer', input: async (fx: TeamFixture) => ({ ...(await own(fx)), limit: 5 }) },
    'triggers.create': {
      access: 'admin',
      input: (fx: TeamFixture) => ({
        teamId: fx.teamId,
        name: `matrix-new-${made++}`,
        target: { type: 'start_run', agentId: agentId(), goalTemplate: 'Handle {{payload.text}}' },
      }),
    },
    'triggers.update': { access: 'admin', input: async (fx: TeamFixture) => ({ ...(await own(fx)), goalTemplate: `Edit ${made++}: {{payload}}` }) },
    'triggers.rotateSecret': { access: 'admin', input: own },
    'triggers.delete': { access: 'admin', input: own },
  } as const;
}

/** Another team's trigger named with the caller's team id: NOT_FOUND for every procedure (a create naming its agent: triggers.int.test.ts). */
export function triggerCrossTeam(db: () => Db, foreignAgentId: () => string) {
  const foreign = async (fx: TeamFixture) => ({ teamId: fx.teamId, triggerId: await triggerOf(db(), fx.otherTeamId, foreignAgentId()) });
  return {
    'triggers.get': foreign,
    'triggers.deliveries': foreign,
    'triggers.update': async (fx: TeamFixture) => ({ ...(await foreign(fx)), enabled: false }),
    'triggers.rotateSecret': foreign,
    'triggers.delete': foreign,
  };
}
