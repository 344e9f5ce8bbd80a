import { z } from 'zod';
import type { Db } from '@looplane/db';
import { roleSchema } from '@looplane/shared';

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

/** Reads the tokens with these hashes (unknown hashes are simply absent). */
export type TokenRead = (hashes: readonly string[]) => Promise<TokenRow[]>;

/**
 * Token → creator → membership in ONE statement for any number of tokens: authentication used to
 * cost three round trips per request (token, user, membership), now a share of one.
 */
export function tokenReadFor(db: Db): TokenRead {
  return async (hashes) => {
    const rows = await db.$queryRaw<unknown[]>`
      SELECT t."tokenHash", t.id, t."teamId", t."createdById", t.role::text AS "tokenRole",
             t."revokedAt" IS NOT NULL AS revoked,
             (extract(epoch FROM t."expiresAt") * 1000)::float8 AS "expiresAtMs",
             (extract(epoch FROM t."lastUsedAt") * 1000)::float8 AS "lastUsedAtMs",
             u.email, u.name, u."disabledAt" IS NOT NULL AS "userDisabled",
             m.role::text AS "memberRole"
      FROM "ApiToken" t
      JOIN "User" u ON u.id = t."createdById"
      LEFT JOIN "Membership" m ON m."teamId" = t."teamId" AND m."userId" = t."createdById"
      WHERE t."tokenHash" = ANY(${[...hashes]}::text[])`;
    return rows.map((row) => tokenRowSchema.parse(row));
  };
}

/** Records use of tokens (bookkeeping for the tokens page), skipping those already marked within `staleBefore`. */
export async function touchTokens(db: Db, tokenIds: readonly string[], now: Date, staleBefore: Date): Promise<void> {
  await db.apiToken.updateMany({
    where: { id: { in: [...tokenIds] }, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now },
  });
}
