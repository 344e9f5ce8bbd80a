import { unwrap } from '@looplane/client';
import { UsageError } from '../command';
import type { CliEnv } from '../env';
import { createApiClient, describeApiError, type ApiClient, type Remote } from './client';

export interface RemoteSession {
  remote: Remote;
  api: ApiClient;
  team: { id: string; slug: string };
}

/**
 * The server, the token and the team the remote commands act in. A token belongs to one team
 * (`GET /me` names it); `--team` only has to be given to check it.
 */
export async function openRemoteSession(env: CliEnv, teamSlug: string | undefined, fetchImpl?: typeof fetch): Promise<RemoteSession> {
  if (!env.LOOPLANE_TOKEN) {
    throw new UsageError('LOOPLANE_TOKEN is not set: create an API token in the dashboard (Settings → API tokens) and export it');
  }
  const remote = { url: env.LOOPLANE_URL, token: env.LOOPLANE_TOKEN };
  const api = createApiClient(remote, fetchImpl);
  const me = await unwrap(api.GET('/me')).catch((error: unknown) => {
    throw new Error(describeApiError(error, remote));
  });
  if (teamSlug !== undefined && me.team.slug !== teamSlug) {
    throw new UsageError(`the token has no access to team "${teamSlug}" (it sees: ${me.team.slug})`);
  }
  return { remote, api, team: { id: me.team.id, slug: me.team.slug } };
}
