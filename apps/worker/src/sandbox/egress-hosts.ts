/**
 * The egress allowlist of a run from its config's `egressHosts`: `host:port` entries pass as
 * they are; a bare host (or `*.domain`) allows its HTTPS and HTTP ports. Entries the proxy's
 * policy would refuse are returned separately, so the worker can say which it ignored.
 */
const ENTRY = /^(\*\.)?[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;
const HOST = /^(\*\.)?[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/;

export function egressAllowlist(hosts: readonly string[]): { allow: string[]; ignored: string[] } {
  const allow = new Set<string>();
  const ignored: string[] = [];
  for (const raw of hosts) {
    const entry = raw.trim();
    if (ENTRY.test(entry)) allow.add(entry.toLowerCase());
    else if (HOST.test(entry)) {
      allow.add(`${entry.toLowerCase()}:443`);
      allow.add(`${entry.toLowerCase()}:80`);
    } else ignored.push(raw);
  }
  return { allow: [...allow], ignored };
}
