import { queryableOf, tokensByHash, type Db, type TokenRow } from '@looplane/db';

export type { TokenRow };

/** Reads the tokens with these hashes (unknown hashes are simply absent). */
export type TokenRead = (hashes: readonly string[]) => Promise<TokenRow[]>;

/** The token read of a database: token → creator → membership in one statement for any number of tokens. */
export function tokenReadFor(db: Db): TokenRead {
  const queryable = queryableOf(db);
  return (hashes) => tokensByHash(queryable, hashes);
}

/** Records use of tokens (bookkeeping for the tokens page), skipping those already marked within `staleBefore`. */
export async function touchTokens(db: Db, tokenIds: readonly string[], now: Date, staleBefore: Date): Promise<void> {
  await db.apiToken.updateMany({
    where: { id: { in: [...tokenIds] }, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now },
  });
}
