import { SecretBox, type Queryable } from '@looplane/db';
import type { PolicyDocument } from '@looplane/policy';
import type { Logger } from 'pino';
import { readActivePolicy } from '../ports/team-policy';
import type { SecretLookup } from './egress-plan';

/** What the sandbox needs from the team: its active policy and the secrets its egress credentials name. */
export interface EgressSource {
  /** The team's active policy document (the built-in default while it has none). */
  policy(teamId: string): Promise<{ document: PolicyDocument; versionId: string | null }>;
  /** Opens the named team secrets; a name that is absent or cannot be opened says why. */
  secrets(teamId: string, names: readonly string[]): Promise<SecretLookup>;
}

const SECRETS_SQL = `SELECT name, ciphertext FROM "TeamSecret" WHERE "teamId" = $1 AND name = ANY($2::text[])`;

/**
 * The worker's {@link EgressSource}: the team's active policy version and its `TeamSecret` rows,
 * opened with LOOPLANE_ENCRYPTION_KEY. Both are cached for `ttlMs` (default 2 s, as the tool-call
 * decisions), so a policy or secret change applies to a session's next tool call within that
 * time. Secret values never leave this object except into the egress proxy's policy.
 */
export class TeamEgressSource implements EgressSource {
  private readonly box: SecretBox | null;
  private readonly ttlMs: number;
  private readonly policies = new Map<string, { at: number; value: Promise<{ document: PolicyDocument; versionId: string | null }> }>();
  private readonly opened = new Map<string, { at: number; value: Promise<SecretLookup> }>();

  constructor(private readonly options: { pool: Queryable; encryptionKey: string | undefined; logger: Logger; ttlMs?: number }) {
    this.box = options.encryptionKey ? new SecretBox(options.encryptionKey) : null;
    this.ttlMs = options.ttlMs ?? 2000;
  }

  policy(teamId: string): Promise<{ document: PolicyDocument; versionId: string | null }> {
    return cached(this.policies, teamId, this.ttlMs, () => readActivePolicy(this.options.pool, teamId, this.options.logger));
  }

  secrets(teamId: string, names: readonly string[]): Promise<SecretLookup> {
    if (names.length === 0) return Promise.resolve(new Map());
    const sorted = [...new Set(names)].sort();
    return cached(this.opened, `${teamId}\u0000${sorted.join('\u0000')}`, this.ttlMs, () => this.open(teamId, sorted));
  }

  private async open(teamId: string, names: string[]): Promise<SecretLookup> {
    const found = await this.options.pool.query({ name: 'looplane_team_secrets_v1', text: SECRETS_SQL, values: [teamId, names] });
    const rows = new Map((found.rows as { name: string; ciphertext: string }[]).map((row) => [row.name, row.ciphertext]));
    const lookup = new Map<string, { value: string } | { problem: string }>();
    for (const name of names) {
      const sealed = rows.get(name);
      if (sealed === undefined) lookup.set(name, { problem: 'does not exist (Settings → Secrets)' });
      else if (!this.box) lookup.set(name, { problem: 'cannot be opened: this worker has no LOOPLANE_ENCRYPTION_KEY' });
      else {
        try {
          lookup.set(name, { value: this.box.open(sealed) });
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
