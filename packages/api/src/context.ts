import type { Db } from '@looplane/db';
import { resolvePrincipal, type Credentials, type Principal } from './auth/principal';
import type { Dispatch } from './dispatch';

/** Long-lived dependencies of the API, created once per server process. */
export interface ApiDeps {
  db: Db;
  /** After-commit wake-ups and live notices (queue + Redis pub/sub). */
  dispatch: Dispatch;
}

export interface RequestInfo extends Credentials {
  ip: string | null;
}

export interface Context {
  db: Db;
  dispatch: Dispatch;
  principal: Principal | null;
  ip: string | null;
}

/** Builds the per-request tRPC context: resolves the caller once, up front. */
export async function createTrpcContext(deps: ApiDeps, request: RequestInfo): Promise<Context> {
  const principal = await resolvePrincipal(deps.db, request);
  return { db: deps.db, dispatch: deps.dispatch, principal, ip: request.ip };
}
