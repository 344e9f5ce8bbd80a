import { authedProcedure } from '../trpc';
import { resolveTeamRole } from '../auth/principal';
import { listUserTeams } from '../services/teams.service';

/** Who am I: the user, how they authenticated, and their teams with roles. */
export const meProcedure = authedProcedure.query(async ({ ctx }) => {
  const { principal } = ctx;
  const user = { id: principal.userId, email: principal.email, name: principal.name };
  if (principal.kind === 'user') {
    return { user, via: 'session' as const, token: null, teams: await listUserTeams(ctx.db, principal.userId) };
  }
  const role = await resolveTeamRole(ctx.db, principal, principal.teamId);
  const teams = (await listUserTeams(ctx.db, principal.userId))
    .filter((team) => team.id === principal.teamId && role)
    .map((team) => ({ ...team, role: role ?? team.role }));
  return {
    user,
    via: 'token' as const,
    token: { id: principal.tokenId, teamId: principal.teamId, role: principal.tokenRole },
    teams,
  };
});
