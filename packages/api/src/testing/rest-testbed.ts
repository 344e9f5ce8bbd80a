// Vitest-only (registers hooks), like `testbed.ts`, so it stays out of `./index.ts`: this package's tests
// import it by relative path, other packages' tests as `@looplane/api/testing/rest-testbed`.
import { afterAll, beforeAll } from 'vitest';
import { ROLES, type Role } from '@looplane/shared';
import type { ApiDeps } from '../context';
import { issueToken } from './fixtures';
import { serveApi, type ServedApi } from './node-server';
import { restClient, type RestClient } from './rest-client';
import { apiTestbed, type ApiTestbedOptions, type ApiTestbedWithAgent } from './testbed';

export interface RestTestbed {
  readonly tb: ApiTestbedWithAgent;
  /** The server's origin (`http://127.0.0.1:port`). */
  readonly url: string;
  /** A client with a fresh team token of the member with `role` (tokens are made once per role). */
  as(role: Role): RestClient;
  /** A client with any token, or none. */
  client(token: string | null): RestClient;
  /** The secret of the role's token. */
  token(role: Role): string;
  /** Serves the API again with other dependencies (a workspace reader); the new server is closed with the rest. */
  serveWith(deps: ApiDeps): Promise<string>;
}

/**
 * {@link apiTestbed} with an agent, the API on a real HTTP server, and a team token per role.
 * Every REST response the server gives is checked against its route's schema; a mismatch is a
 * 500 for the request and fails the file in `afterAll`.
 */
export function restTestbed(options: Omit<ApiTestbedOptions, 'agent'> = {}): RestTestbed {
  const tb = apiTestbed({ ...options, agent: true });
  const servers: ServedApi[] = [];
  const tokens = new Map<Role, string>();
  const serve = async (deps: ApiDeps) => {
    const served = await serveApi(deps, { db: deps.db, bus: tb.live.bus });
    servers.push(served);
    return served.url;
  };

  beforeAll(async () => {
    await serve(tb.deps);
    for (const role of ROLES) tokens.set(role, (await issueToken(tb.db, tb.fx.teamId, tb.fx.members[role].id, role)).secret);
  });
  afterAll(async () => {
    const errors = servers.flatMap((s) => s.restErrors);
    await Promise.all(servers.map((s) => s.close()));
    if (errors.length > 0) throw new Error(`REST requests failed inside: ${errors.map(String).join('\n')}`);
  });

  const url = () => {
    const first = servers[0];
    if (!first) throw new Error('restTestbed: not set up yet (use it inside a test or hook)');
    return first.url;
  };
  const token = (role: Role) => {
    const secret = tokens.get(role);
    if (!secret) throw new Error('restTestbed: not set up yet (use it inside a test or hook)');
    return secret;
  };
  return {
    tb,
    get url() {
      return url();
    },
    as: (role) => restClient(url(), token(role)),
    client: (secret) => restClient(url(), secret),
    token,
    serveWith: serve,
  };
}
