import type { PolicyDocument, Rule, RuleMatch } from '../document/policy-schema';
import { HTTP_TOOL } from '../tool-names';
import type { Decision } from './decision';
import { fromDefault, fromRule } from './evaluate';
import { matchRule } from './match-rule';
import { type PreparedCall, prepareCall } from './prepare-call';

/**
 * One request through a sandbox's egress proxy, as much of it as the proxy can see:
 * - `http`: a request the proxy forwards itself (plain `http://`, or an absolute-form `https://`
 *   request it originates over TLS): method and whole URL are known;
 * - `connect`: a CONNECT tunnel (HTTPS from `curl` and most clients): the proxy does not
 *   terminate TLS, so only host and port are known, never the method, path or body.
 */
export type ProxiedRequest = { kind: 'http'; method: string; url: string } | { kind: 'connect'; host: string; port: number };

/** A decision for a proxied request, with the sentence the proxy answers and records. */
export interface RequestDecision extends Decision {
  /** Names the rule that decided and, when refused, what to do instead. */
  message: string;
}

/** A rule's conditions split into those the proxy can check and those it cannot see. */
type Split = { visible: RuleMatch; hidden: string[] };

/** Inside a tunnel only host and port are seen: method, path and arguments are not. */
function hiddenInTunnel(match: RuleMatch): Split {
  const visible: RuleMatch = { ...match };
  const hidden = (['methods', 'paths', 'args'] as const).filter((field) => match[field] !== undefined);
  for (const field of hidden) delete visible[field];
  return { visible, hidden };
}

/** A whole request is seen as an http_request call with `url` and `method`: other arguments (headers, body) are not. */
function hiddenInRequest(match: RuleMatch): Split {
  const entries = Object.entries(match.args ?? {});
  const hidden = entries.filter(([key]) => key !== 'url' && key !== 'method').map(([key]) => `args.${key}`);
  if (hidden.length === 0) return { visible: match, hidden };
  const { args: _args, ...rest } = match;
  const seen = entries.filter(([key]) => key === 'url' || key === 'method');
  return { visible: seen.length > 0 ? { ...rest, args: Object.fromEntries(seen) } : rest, hidden };
}

const NEEDS_APPROVER = 'a request through the egress proxy cannot wait for an approver: make it with the http_request tool, which asks for one';

/** What decided, naming the rule (a rule's own reason may not), or the default's reason. */
function decidedBy(rule: Rule | undefined, decision: Decision): string {
  if (!rule) return decision.reason;
  const why = rule.reason ? `: ${rule.reason}` : '';
  if (rule.outcome === 'allow') return `allowed by policy rule "${rule.id}"${why}`;
  return rule.outcome === 'deny' ? `denied by policy rule "${rule.id}"${why}` : `policy rule "${rule.id}" requires approval${why}`;
}

function withMessage(decision: Decision, rule: Rule | undefined, head = decidedBy(rule, decision)): RequestDecision {
  if (decision.outcome !== 'require_approval') return { ...decision, message: head };
  return { ...decision, message: `${head}; this request needs an approver (${decision.approverRole ?? 'approver'}), and ${NEEDS_APPROVER}` };
}

/**
 * Decides what the proxy can see, conservatively. A rule whose visible conditions hold but some of
 * whose conditions cannot be checked *might* apply (an unknown method matches no `methods` list,
 * so such a rule never decides by itself). The first rule that surely applies (or the default)
 * decides, unless a rule before it might apply and says deny or require_approval: then the
 * request might be one the policy refuses, so it is refused as that rule says. What the proxy
 * cannot see is allowed only when every request it could be would be.
 */
function decideSeen(
  document: PolicyDocument,
  prepared: PreparedCall,
  split: (match: RuleMatch) => Split,
  what: { subject: string; where: string; seen: string },
): RequestDecision {
  let maybeRefused: { rule: Rule; hidden: string[] } | null = null;
  let deciding: Rule | null = null;
  for (const rule of document.rules) {
    if (rule.match.effect) continue;
    const { visible, hidden } = split(rule.match);
    if (!matchRule({ ...rule, match: visible }, prepared, document).matched) continue;
    if (hidden.length === 0) {
      deciding = rule;
      break;
    }
    if (rule.outcome !== 'allow') maybeRefused ??= { rule, hidden };
  }
  const decision = deciding ? fromRule(deciding, undefined) : fromDefault(document, prepared);
  if (decision.outcome !== 'allow' || !maybeRefused) return withMessage(decision, deciding ?? undefined);
  const { rule, hidden } = maybeRefused;
  const verb = rule.outcome === 'deny' ? 'denies' : 'requires approval for';
  const target = prepared.target?.ok ? `${prepared.target.host}:${prepared.target.port}` : 'this host';
  const head =
    `${what.seen}, and policy rule "${rule.id}" ${verb} some requests to ${target}${rule.reason ? ` (${rule.reason})` : ''}; ` +
    `its ${hidden.join(', ')} cannot be checked ${what.where}, so the ${what.subject} is refused`;
  const refused = { ...fromRule(rule, undefined), reason: head };
  if (rule.outcome === 'deny') return { ...refused, message: `${head}; the http_request tool is decided on the whole request` };
  return withMessage(refused, rule, head);
}

/**
 * Decides one request through the egress proxy by the same rules as an `http_request` call: it is
 * evaluated as if `http_request` had been called with that method and URL, so the first matching
 * rule decides (tool globs such as `*` or `http_*` included; shell-only and effect rules do not
 * apply). A CONNECT tunnel is decided on host and port only, and either kind conservatively
 * where a rule looks at what the proxy cannot see (see `decideSeen`).
 * Pure: the proxy's caller reads the document.
 */
export function decideRequest(document: PolicyDocument, request: ProxiedRequest): RequestDecision {
  if (request.kind === 'connect') {
    const prepared: PreparedCall = {
      call: { tool: HTTP_TOOL, args: {} },
      target: { ok: true, host: request.host, port: request.port, method: 'CONNECT', path: null },
    };
    return decideSeen(document, prepared, hiddenInTunnel, { subject: 'tunnel', where: 'inside a tunnel', seen: 'a CONNECT tunnel shows only host and port' });
  }
  const prepared = prepareCall({ tool: HTTP_TOOL, args: { url: request.url, method: request.method } });
  return decideSeen(document, prepared, hiddenInRequest, {
    subject: 'request',
    where: 'at the proxy',
    seen: "the proxy sees a request's method and URL, not its headers or body",
  });
}
