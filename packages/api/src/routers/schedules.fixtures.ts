import type { Db } from '@looplane/db';
import type { TeamFixture } from '../testing/fixtures';

let made = 0;

/** A schedule of the team, straight in the database (enabled, every hour, never due in a test). */
export async function scheduleOf(db: Db, teamId: string, agentId: string): Promise<string> {
  const row = await db.schedule.create({
    data: { teamId, name: `matrix-schedule-${made++}`, agentId, everySeconds: 3600, goal: 'matrix tick', nextFireAt: new Date(Date.now() + 3600_000) },
  });
  return row.id;
}

/** The authorization matrix's cases for the `schedules` router: viewers read, operators change; each call on a schedule of its own. */
export function scheduleMatrix(db: () => Db, agentId: () => string) {
  const own = async (fx: TeamFixture) => ({ teamId: fx.teamId, scheduleId: await scheduleOf(db(), fx.teamId, agentId()) });
  return {
    'schedules.list': { access: 'viewer', input: (fx: TeamFixture) => ({ teamId: fx.teamId }) },
    'schedules.get': { access: 'viewer', input: own },
    'schedules.create': {
      access: 'operator',
      input: (fx: TeamFixture) => ({ teamId: fx.teamId, name: `matrix-new-${made++}`, agentId: agentId(), cron: '0 9 * * *', goal: 'matrix' }),
    },
    'schedules.update': { access: 'operator', input: async (fx: TeamFixture) => ({ ...(await own(fx)), goal: `edit ${made++}` }) },
    'schedules.pause': { access: 'operator', input: own },
    'schedules.resume': { access: 'operator', input: own },
    'schedules.delete': { access: 'operator', input: own },
    'schedules.runNow': { access: 'operator', input: own },
  } as const;
}

/** Another team's schedule named with the caller's team id: NOT_FOUND for every procedure. */
export function scheduleCrossTeam(db: () => Db, foreignAgentId: () => string) {
  const foreign = async (fx: TeamFixture) => ({ teamId: fx.teamId, scheduleId: await scheduleOf(db(), fx.otherTeamId, foreignAgentId()) });
  return {
    'schedules.get': foreign,
    'schedules.update': async (fx: TeamFixture) => ({ ...(await foreign(fx)), goal: 'hijack' }),
    'schedules.pause': foreign,
    'schedules.resume': foreign,
    'schedules.delete': foreign,
    'schedules.runNow': foreign,
    'schedules.create': (fx: TeamFixture) => ({ teamId: fx.teamId, name: `cross-${made++}`, agentId: foreignAgentId(), everySeconds: 60, goal: 'hijack' }),
  };
}
