import { z } from 'zod';
import { roleSchema } from '@looplane/shared';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param } from '../sql/named-query';

/** What one statement knows about a token: the token, its creator, and the creator's membership of the token's team. */
const tokenRowSchema = z.object({
  tokenHash: z.string(),
  id: z.string(),
  teamId: z.string(),
  createdById: z.string(),
  tokenRole: roleSchema,
  revoked: z.boolean(),
  /** Epoch milliseconds (timestamps are stored as UTC without a zone; epoch avoids any session time zone). */
  expiresAtMs: z.number().nullable(),
  lastUsedAtMs: z.number().nullable(),
  email: z.string(),
  name: z.string().nullable(),
  userDisabled: z.boolean(),
  /** The creator's current role in the token's team; null when they are no longer a member. */
  memberRole: roleSchema.nullable(),
});
export type TokenRow = z.infer<typeof tokenRowSchema>;

const BY_HASH_SQL = namedQuery({
  name: 'looplane_tokens_by_hash_v1',
  params: { hashes: param.textArray },
  text: `
      SELECT t."tokenHash", t.id, t."teamId", t."createdById", t.role::text AS "tokenRole",
             t."revokedAt" IS NOT NULL AS revoked,
             (extract(epoch FROM t."expiresAt") * 1000)::float8 AS "expiresAtMs",
             (extract(epoch FROM t."lastUsedAt") * 1000)::float8 AS "lastUsedAtMs",
             u.email, u.name, u."disabledAt" IS NOT NULL AS "userDisabled",
             m.role::text AS "memberRole"
      FROM "ApiToken" t
      JOIN "User" u ON u.id = t."createdById"
      LEFT JOIN "Membership" m ON m."teamId" = t."teamId" AND m."userId" = t."createdById"
      WHERE t."tokenHash" = ANY(:hashes)`,
});

/**
 * The tokens with these hashes (unknown hashes are simply absent): token → creator → membership in
 * ONE statement for any number of tokens, so authentication costs a share of one round trip per
 * request, not three (token, user, membership).
 */
export async function tokensByHash(db: Queryable, hashes: readonly string[]): Promise<TokenRow[]> {
  const result = await db.query(BY_HASH_SQL.bind({ hashes: [...hashes] }));
  return result.rows.map((row) => tokenRowSchema.parse(row));
}
