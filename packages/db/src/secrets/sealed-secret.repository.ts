import type { Forge, SecretKind } from '../generated/prisma/client';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** The forges a token secret may open pull requests on (the schema's `Forge` enum). */
export type { Forge };

/**
 * A team secret as the worker reads it: still sealed (open `ciphertext` with `SecretBox`), with
 * what says how the value may be used. `username`, `forge` and `apiUrl` are set only on a `token`.
 */
export interface SealedSecret {
  name: string;
  kind: SecretKind;
  username: string | null;
  forge: Forge | null;
  apiUrl: string | null;
  ciphertext: string;
}

const SEALED_SECRET_SQL = namedQuery({
  name: 'looplane_sealed_secret_v1',
  params: { team_id: param.text, name: param.text },
  text: `
SELECT name, kind::text AS kind, username, forge::text AS forge, "apiUrl", ciphertext
FROM "TeamSecret" WHERE "teamId" = :team_id AND name = :name`,
}).returns<SealedSecret>();

/** The egress proxy's read: several names at once, `:names` a JSON array of strings. */
const SEALED_SECRETS_SQL = namedQuery({
  name: 'looplane_sealed_secrets_v1',
  params: { team_id: param.text, names: param.jsonb },
  text: `
SELECT name, kind::text AS kind, username, forge::text AS forge, "apiUrl", ciphertext
FROM "TeamSecret"
WHERE "teamId" = :team_id AND name IN (SELECT jsonb_array_elements_text(:names))`,
}).returns<SealedSecret>();

/** One team secret by name, sealed; null when the team has none of that name. */
export async function sealedSecret(db: Queryable, teamId: string, name: string): Promise<SealedSecret | null> {
  const result = await db.query(SEALED_SECRET_SQL.bind({ team_id: teamId, name }));
  return rowsOf(SEALED_SECRET_SQL, result)[0] ?? null;
}

/** The named team secrets that exist, sealed, keyed by name (an absent name has no entry). */
export async function sealedSecrets(db: Queryable, teamId: string, names: readonly string[]): Promise<Map<string, SealedSecret>> {
  if (names.length === 0) return new Map();
  const result = await db.query(SEALED_SECRETS_SQL.bind({ team_id: teamId, names: JSON.stringify(names) }));
  return new Map(rowsOf(SEALED_SECRETS_SQL, result).map((row) => [row.name, row]));
}
