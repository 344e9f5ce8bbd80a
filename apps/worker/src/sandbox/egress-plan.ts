import type { PolicyDocument } from '@looplane/policy';
import { egressAllowlist } from './egress-hosts';

/**
 * What a session's egress proxy is started with, from the team's active policy and the agent
 * template. The rule:
 *
 * - The template decides whether the agent has network at all (`network: 'egress'`); the team's
 *   policy decides where it may go (`egress.allow`). The template's `egressHosts` can only narrow
 *   the policy's list, never widen it: each template entry is intersected with the policy's
 *   entries (`api.github.com:443` under a policy `*.github.com` stays; `example.com` under a policy
 *   that does not name it is dropped). A template that lists no hosts gets the policy's list.
 * - A policy entry without a port allows 443 and 80 through the proxy (which needs ports); name
 *   the port (`host:8443`) for anything else.
 * - Credentials (`egress.credentials`, by `secretRef`) are resolved from the team's secrets and
 *   injected by the proxy for the exact hosts they cover, only into `https://` requests it sends
 *   over TLS it originates (never into a CONNECT tunnel, and into plain `http://` only when the
 *   credential says `insecure: true`). An entry that would need a credential
 *   the worker cannot provide (the secret is missing or cannot be opened, or a `*.domain`
 *   credential under a `*.domain` entry, whose hosts the proxy cannot know in advance) is taken
 *   off the list, so the request is refused (403) instead of being sent without it; `refusals`
 *   says why, and the worker records that reason in the `egress.decided` event.
 */
export interface EgressPlan {
  /** Proxy allow entries (`host:port`, `*.domain:port`). */
  allow: string[];
  /**
   * Headers the proxy injects, per exact host and port; `insecure` ones over plain HTTP too.
   * Values are secrets: never log a plan.
   */
  credentials: { host: string; port: number; headers: Record<string, string>; insecure: boolean }[];
  /** Entries taken off the list, and why (what a refused request is recorded with). */
  refusals: { entry: string; reason: string }[];
  /** Template entries that are neither `host` nor `host:port`. */
  ignored: string[];
}

interface HostPattern {
  wildcard: boolean;
  domain: string;
}
interface Entry extends HostPattern {
  port: number;
}

/** A secret as the worker could (or could not) open it. */
export type SecretLookup = ReadonlyMap<string, { value: string } | { problem: string }>;

function parsePattern(raw: string): HostPattern & { port: number | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracketed) return { wildcard: false, domain: (bracketed[1] ?? '').toLowerCase(), port: bracketed[2] ? Number(bracketed[2]) : null };
  const colon = raw.lastIndexOf(':');
  const hasPort = colon !== -1 && /^\d+$/.test(raw.slice(colon + 1));
  const host = (hasPort ? raw.slice(0, colon) : raw).trim().toLowerCase().replace(/\.$/, '');
  const wildcard = host.startsWith('*.');
  return { wildcard, domain: wildcard ? host.slice(2) : host, port: hasPort ? Number(raw.slice(colon + 1)) : null };
}

const under = (name: string, domain: string) => name.endsWith(`.${domain}`);

/** The hosts both patterns match, as one pattern, or null when they share none. */
function intersect(a: HostPattern, b: HostPattern): HostPattern | null {
  if (!a.wildcard && !b.wildcard) return a.domain === b.domain ? a : null;
  if (!a.wildcard) return under(a.domain, b.domain) ? a : null;
  if (!b.wildcard) return under(b.domain, a.domain) ? b : null;
  if (a.domain === b.domain || under(a.domain, b.domain)) return a;
  return under(b.domain, a.domain) ? b : null;
}

const format = (e: Entry) => `${e.wildcard ? '*.' : ''}${e.domain.includes(':') ? `[${e.domain}]` : e.domain}:${e.port}`;

/** The policy's egress entries narrowed by the template's hosts (none listed: the policy's own). */
function narrowedEntries(document: PolicyDocument, templateHosts: readonly string[]): { entries: Entry[]; ignored: string[] } {
  const policy = document.egress.allow.map(parsePattern);
  const expand = (p: HostPattern & { port: number | null }): Entry[] =>
    (p.port === null ? [443, 80] : [p.port]).map((port) => ({ wildcard: p.wildcard, domain: p.domain, port }));
  if (templateHosts.length === 0) return { entries: dedupe(policy.flatMap(expand)), ignored: [] };
  const { allow, ignored } = egressAllowlist(templateHosts);
  const entries: Entry[] = [];
  for (const raw of allow) {
    const wanted = parsePattern(raw);
    if (wanted.port === null) continue;
    for (const allowed of policy) {
      if (allowed.port !== null && allowed.port !== wanted.port) continue;
      const host = intersect(wanted, allowed);
      if (host) entries.push({ ...host, port: wanted.port });
    }
  }
  return { entries: dedupe(entries), ignored };
}

function dedupe(entries: Entry[]): Entry[] {
  const seen = new Map<string, Entry>();
  for (const entry of entries) seen.set(format(entry), entry);
  return [...seen.values()];
}

/** The secret names the plan for these inputs needs (so the worker opens only those). */
export function secretRefsFor(document: PolicyDocument, templateHosts: readonly string[]): string[] {
  const { entries } = narrowedEntries(document, templateHosts);
  const refs = new Set<string>();
  for (const credential of document.egress.credentials) {
    const c = parsePattern(credential.host);
    if (entries.some((e) => (c.port === null || c.port === e.port) && intersect(c, e))) refs.add(credential.secretRef);
  }
  return [...refs];
}

/** Builds the proxy's policy for one session; see {@link EgressPlan} for the rule. */
export function planEgress(document: PolicyDocument, templateHosts: readonly string[], secrets: SecretLookup): EgressPlan {
  const { entries, ignored } = narrowedEntries(document, templateHosts);
  const allow: string[] = [];
  const refusals: EgressPlan['refusals'] = [];
  const injected = new Map<string, EgressPlan['credentials'][number]>();
  for (const entry of entries) {
    let refused: string | null = null;
    const headers: { host: string; header: string; value: string; insecure: boolean }[] = [];
    for (const credential of document.egress.credentials) {
      const c = parsePattern(credential.host);
      if ((c.port !== null && c.port !== entry.port) || !intersect(c, entry)) continue;
      const secret = secrets.get(credential.secretRef) ?? { problem: 'does not exist' };
      if ('problem' in secret) {
        refused = `the team secret "${credential.secretRef}" that the policy's egress credential for ${credential.host} (${credential.header}) needs ${secret.problem}`;
        break;
      }
      if (entry.wildcard && c.wildcard) {
        refused = `the policy's egress credential for ${credential.host} cannot be injected for every host of ${format(entry)}; allow those hosts by name`;
        break;
      }
      // An exact credential under a wildcard entry applies to that one host; an exact entry takes any credential covering it.
      headers.push({ host: entry.wildcard ? c.domain : entry.domain, header: credential.header, value: secret.value, insecure: credential.insecure === true });
    }
    if (refused) {
      refusals.push({ entry: format(entry), reason: refused });
      continue;
    }
    allow.push(format(entry));
    for (const { host, header, value, insecure } of headers) {
      const key = `${host}:${entry.port}:${insecure}`;
      const item = injected.get(key) ?? { host, port: entry.port, headers: {}, insecure };
      item.headers[header] = value;
      injected.set(key, item);
    }
  }
  return { allow, credentials: [...injected.values()], refusals, ignored };
}

/** The refusal that explains a denied `host:port`, if the plan took its entry off the list. */
export function refusalFor(plan: Pick<EgressPlan, 'refusals'>, host: string, port: number): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  for (const refusal of plan.refusals) {
    const entry = parsePattern(refusal.entry);
    if (entry.port !== port) continue;
    if (entry.wildcard ? under(name, entry.domain) : name === entry.domain) return refusal.reason;
  }
  return null;
}
