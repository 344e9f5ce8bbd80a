import { decideRequest, type ProxiedRequest } from '@looplane/policy';
import type { EgressRequest, EgressVerdict } from '@looplane/sandbox';
import type { EgressSource } from './team-egress';

/**
 * The egress proxy's per-request rules for one team's session: every request from inside the
 * sandbox is decided as an `http_request` call with that method and URL would be, by the team's
 * active policy, read per request against the current version, so `curl` in `shell` meets the
 * same rules as the tool. `require_approval` cannot wait at the proxy: it refuses, and the message
 * says to ask through `http_request`. A CONNECT tunnel is decided on host and port only,
 * conservatively (see `decideRequest`).
 */
export function egressRules(source: EgressSource, teamId: string): (request: EgressRequest) => Promise<EgressVerdict> {
  return async (request) => {
    const { document } = await source.policy(teamId);
    const proxied: ProxiedRequest =
      request.kind === 'http' ? { kind: 'http', method: request.method, url: request.url } : { kind: 'connect', host: request.host, port: request.port };
    const decision = decideRequest(document, proxied);
    return { allowed: decision.outcome === 'allow', reason: decision.message };
  };
}
