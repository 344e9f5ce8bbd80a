import type { Db } from '@looplane/db';
import { resolvePrincipal, type Credentials, type Principal } from './auth/principal';

/** Long-lived dependencies of the API, created once per server process. */
export interface ApiDeps {
  db: Db;
}

export interface RequestInfo extends Credentials {
  ip: string | null;
}

export interface Context {
  db: Db;
  principal: Principal | null;
  ip: string | null;
}

/** Builds the per-request tRPC context: resolves the caller once, up front. */
export async function createTrpcContext(deps: ApiDeps, request: RequestInfo): Promise<Context> {
  const principal = await resolvePrincipal(deps.db, request);
  return { db: deps.db, principal, ip: request.ip };
}
