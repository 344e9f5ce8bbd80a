import { SecretBox, sealedSecrets, type Queryable } from '@looplane/db';
import type { PolicyDocument } from '@looplane/policy';
import type { Logger } from 'pino';
import { PolicyVersions } from '../ports/policy-versions';
import type { SecretLookup } from './egress-plan';

/** What the sandbox needs from the team: its active policy and the secrets its egress credentials name. */
export interface EgressSource {
  /** The team's active policy document as it is now (the built-in default while it has none). */
  policy(teamId: string): Promise<{ document: PolicyDocument; versionId: string | null }>;
  /** Opens the named team secrets; a name that is absent or cannot be opened says why. */
  secrets(teamId: string, names: readonly string[]): Promise<SecretLookup>;
}

/**
 * The worker's {@link EgressSource}: the team's active policy version and its `TeamSecret` rows,
 * opened with LOOPLANE_ENCRYPTION_KEY. The policy is read against the current version on every
 * call and proxied request ({@link PolicyVersions}), so its sandbox section, egress allowlist,
 * credentials and rules bind the first call after a save. Opened secrets are cached for `ttlMs`
 * (default 2 s), so a rotated secret applies to a session's next tool call within that time.
 * Secret values never leave this object except into the egress proxy's policy.
 */
export class TeamEgressSource implements EgressSource {
  private readonly box: SecretBox | null;
  private readonly ttlMs: number;
  private readonly versions: PolicyVersions;
  private readonly opened = new Map<string, { at: number; value: Promise<SecretLookup> }>();

  constructor(private readonly options: { pool: Queryable; encryptionKey: string | undefined; logger: Logger; ttlMs?: number }) {
    this.box = options.encryptionKey ? new SecretBox(options.encryptionKey) : null;
    this.ttlMs = options.ttlMs ?? 2000;
    this.versions = new PolicyVersions({ pool: options.pool, logger: options.logger });
  }

  async policy(teamId: string): Promise<{ document: PolicyDocument; versionId: string | null }> {
    const { document, versionId } = (await this.versions.current(teamId)).active;
    return { document, versionId };
  }

  secrets(teamId: string, names: readonly string[]): Promise<SecretLookup> {
    if (names.length === 0) return Promise.resolve(new Map());
    const sorted = [...new Set(names)].sort();
    return cached(this.opened, `${teamId}\u0000${sorted.join('\u0000')}`, this.ttlMs, () => this.open(teamId, sorted));
  }

  private async open(teamId: string, names: string[]): Promise<SecretLookup> {
    const rows = await sealedSecrets(this.options.pool, teamId, names);
    const lookup = new Map<string, { value: string } | { problem: string }>();
    for (const name of names) {
      const sealed = rows.get(name);
      if (sealed === undefined) lookup.set(name, { problem: 'does not exist (Settings → Secrets)' });
      // A private key is never a header: its newlines would inject headers, and it would leave for a host.
      else if (sealed.kind === 'ssh_key') lookup.set(name, { problem: 'is an ssh_key secret, not a header value' });
      else if (!this.box) lookup.set(name, { problem: 'cannot be opened: this worker has no LOOPLANE_ENCRYPTION_KEY' });
      else {
        try {
          lookup.set(name, { value: this.box.open(sealed.ciphertext) });
        } catch {
          // Only the name is logged: the sealed value was written under another key or altered.
          this.options.logger.error({ teamId, secret: name }, "a team secret cannot be opened with this worker's LOOPLANE_ENCRYPTION_KEY");
          lookup.set(name, { problem: "cannot be opened with this worker's LOOPLANE_ENCRYPTION_KEY" });
        }
      }
    }
    return lookup;
  }
}

/** A short-lived cache entry per key; a failed read is not kept, so the next call asks again. */
function cached<T>(map: Map<string, { at: number; value: Promise<T> }>, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const hit = map.get(key);
  if (hit && Date.now() - hit.at < ttlMs) return hit.value;
  // Expired entries of other keys go too, so the map stays as small as the active teams.
  for (const [other, entry] of map) if (Date.now() - entry.at >= ttlMs) map.delete(other);
  const value = load();
  const entry = { at: Date.now(), value };
  map.set(key, entry);
  value.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
  return value;
}
