import type { Db, SecretBox } from '@looplane/db';
import { resolvePrincipal, type Credentials, type Principal } from './auth/principal';
import type { Dispatch } from './dispatch';
import type { WorkspaceDiffer } from './services/sessions-workspaces';

/** Long-lived dependencies of the API, created once per server process. */
export interface ApiDeps {
  db: Db;
  /** After-commit wake-ups and live notices (queue + Redis pub/sub). */
  dispatch: Dispatch;
  /** Read access to the session workspaces (under LOOPLANE_WORKSPACE_ROOT), for `sessions.diff`; absent: not readable here. */
  workspaces?: WorkspaceDiffer | null;
  /** Seals model endpoint keys (LOOPLANE_ENCRYPTION_KEY); without it keys cannot be stored or used. */
  secretBox?: SecretBox | null;
}

export interface RequestInfo extends Credentials {
  ip: string | null;
}

export interface Context {
  db: Db;
  dispatch: Dispatch;
  workspaces: WorkspaceDiffer | null;
  principal: Principal | null;
  ip: string | null;
  secretBox: SecretBox | null;
}

/** Builds the per-request tRPC context: resolves the caller once, up front. */
export async function createTrpcContext(deps: ApiDeps, request: RequestInfo): Promise<Context> {
  const principal = await resolvePrincipal(deps.db, request);
  return { db: deps.db, dispatch: deps.dispatch, workspaces: deps.workspaces ?? null, principal, ip: request.ip, secretBox: deps.secretBox ?? null };
}
