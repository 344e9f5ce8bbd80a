import { UsageError } from '../command';
import type { CliEnv } from '../env';
import { createApiClient, describeApiError, type ApiClient, type Remote } from './client';

export interface RemoteSession {
  remote: Remote;
  api: ApiClient;
  team: { id: string; slug: string };
}

/**
 * The server, the token and the team the remote commands act in. A token belongs to one team;
 * `--team` only has to be given to check it (or for a token that could see several).
 */
export async function openRemoteSession(env: CliEnv, teamSlug: string | undefined, fetchImpl?: typeof fetch): Promise<RemoteSession> {
  if (!env.LOOPLANE_TOKEN) {
    throw new UsageError('LOOPLANE_TOKEN is not set: create an API token in the dashboard (Settings → API tokens) and export it');
  }
  const remote = { url: env.LOOPLANE_URL, token: env.LOOPLANE_TOKEN };
  const api = createApiClient(remote, fetchImpl);
  const me = await api.me.query().catch((error: unknown) => {
    throw new Error(describeApiError(error, remote));
  });
  const teams = me.teams;
  const team = teamSlug ? teams.find((t) => t.slug === teamSlug) : teams.length === 1 ? teams[0] : undefined;
  if (!team) {
    const known = teams.map((t) => t.slug).join(', ') || 'none';
    throw new UsageError(teamSlug ? `the token has no access to team "${teamSlug}" (it sees: ${known})` : `give --team (the token sees: ${known})`);
  }
  return { remote, api, team: { id: team.id, slug: team.slug } };
}
