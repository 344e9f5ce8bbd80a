import type { PolicyDocument, Rule, RuleMatch } from '../document/policy-schema';
import { HTTP_TOOL } from '../tool-names';
import { DEFAULT_RULE, type Decision } from './decision';
import { decidePrepared, fromDefault, fromRule } from './evaluate';
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

/** The conditions a tunnel cannot check: they depend on what is sent inside it. */
const HIDDEN_IN_TUNNEL = ['methods', 'paths', 'args'] as const satisfies readonly (keyof RuleMatch)[];

const NEEDS_APPROVER =
  'a request through the egress proxy cannot wait for an approver: make it with the http_request tool, which asks for one';

/** What decided, naming the rule (a rule's own reason may not), or the default's reason. */
function decidedBy(rule: Rule | undefined, decision: Decision): string {
  if (!rule) return decision.reason;
  const why = rule.reason ? `: ${rule.reason}` : '';
  if (rule.outcome === 'allow') return `allowed by policy rule "${rule.id}"${why}`;
  return rule.outcome === 'deny' ? `denied by policy rule "${rule.id}"${why}` : `policy rule "${rule.id}" requires approval${why}`;
}

function withMessage(decision: Decision, rule: Rule | undefined, head = decidedBy(rule, decision)): RequestDecision {
  if (decision.outcome === 'allow') return { ...decision, message: head };
  if (decision.outcome === 'deny') return { ...decision, message: head };
  return { ...decision, message: `${head}; this request needs an approver (${decision.approverRole ?? 'approver'}), and ${NEEDS_APPROVER}` };
}

/**
 * Decides a tunnel conservatively. A rule whose host conditions hold but whose method, path or
 * argument conditions cannot be checked *might* apply (an unknown method matches no `methods`
 * list, so such a rule never decides a tunnel by itself). The first rule that surely applies (or
 * the default) decides, unless a rule before it might apply and says deny or require_approval:
 * then some request in the tunnel might be one the policy refuses, so the tunnel is refused as
 * that rule says. A tunnel is allowed only when every request it could carry would be.
 */
function decideTunnel(document: PolicyDocument, host: string, port: number): RequestDecision {
  const prepared: PreparedCall = { call: { tool: HTTP_TOOL, args: {} }, target: { ok: true, host, port, method: 'CONNECT', path: null } };
  let maybeRefused: { rule: Rule; hidden: string[] } | null = null;
  let deciding: Rule | null = null;
  for (const rule of document.rules) {
    if (rule.match.effect) continue;
    const hidden = HIDDEN_IN_TUNNEL.filter((field) => rule.match[field] !== undefined);
    const visible: RuleMatch = { ...rule.match };
    for (const field of hidden) delete visible[field];
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
  const head =
    `a CONNECT tunnel shows only host and port, and policy rule "${rule.id}" ${verb} some requests to ${host}:${port}` +
    `${rule.reason ? ` (${rule.reason})` : ''}; its ${hidden.join(', ')} cannot be checked inside a tunnel, so the tunnel is refused`;
  const refused = { ...fromRule(rule, undefined), reason: head };
  if (rule.outcome === 'deny') return { ...refused, message: `${head}; the http_request tool is decided on the whole request` };
  return withMessage(refused, rule, head);
}

/**
 * Decides one request through the egress proxy by the same rules as an `http_request` call: it is
 * evaluated as if `http_request` had been called with that method and URL, so the first matching
 * rule decides (tool globs such as `*` or `http_*` included; shell-only and effect rules do not
 * apply). A CONNECT tunnel is decided on host and port only, conservatively (see `decideTunnel`).
 * Pure: the proxy's caller reads the document.
 */
export function decideRequest(document: PolicyDocument, request: ProxiedRequest): RequestDecision {
  if (request.kind === 'connect') return decideTunnel(document, request.host, request.port);
  const { trace: _trace, ...decision } = decidePrepared(document, prepareCall({ tool: HTTP_TOOL, args: { url: request.url, method: request.method } }));
  const rule = decision.ruleId === DEFAULT_RULE ? undefined : document.rules.find((r) => r.id === decision.ruleId);
  return withMessage(decision, rule);
}
