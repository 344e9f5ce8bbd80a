import type { Db } from '@looplane/db';
import type { TeamFixture } from '../testing/fixtures';

let made = 0;

/** A unique skill name for a test. */
export function skillName(): string {
  return `skill-${Date.now().toString(36)}-${made++}`;
}

/** A skill of the team, straight in the database (as `skills.create` stores one). */
export async function skillOf(db: Db, teamId: string): Promise<string> {
  const row = await db.skill.create({ data: { teamId, name: skillName(), description: 'A fixture skill.', instructions: 'Do it well.' } });
  return row.id;
}

/** The authorization matrix's cases for the `skills` router: reading is the viewer's, writing the operator's (as for agents). */
export function skillMatrix(db: () => Db) {
  return {
    'skills.list': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId }) },
    'skills.get': { access: 'viewer', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, skillId: await skillOf(db(), fx.teamId) }) },
    'skills.create': {
      access: 'operator',
      input: (fx: TeamFixture) => ({ teamId: fx.teamId, name: skillName(), description: 'Matrix skill.', instructions: 'Be careful.' }),
    },
    'skills.update': {
      access: 'operator',
      input: async (fx: TeamFixture) => ({ teamId: fx.teamId, skillId: await skillOf(db(), fx.teamId), description: 'Edited.' }),
    },
    'skills.archive': { access: 'operator', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, skillId: await skillOf(db(), fx.teamId) }) },
  } as const;
}

/** The other team's skill named with the caller's own team id: NOT_FOUND, and it stays as it was. */
export function skillCrossTeam(db: () => Db) {
  return {
    'skills.get': async (fx: TeamFixture) => ({ teamId: fx.teamId, skillId: await skillOf(db(), fx.otherTeamId) }),
    'skills.update': async (fx: TeamFixture) => ({ teamId: fx.teamId, skillId: await skillOf(db(), fx.otherTeamId), description: 'hijack' }),
    'skills.archive': async (fx: TeamFixture) => ({ teamId: fx.teamId, skillId: await skillOf(db(), fx.otherTeamId) }),
  };
}
