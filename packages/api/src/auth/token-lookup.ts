import type { Db } from '@looplane/db';
import { tokenReadFor, touchTokens, type TokenRead, type TokenRow } from './token-read';
import { BatchQueue } from '@looplane/shared';

interface Pending {
  hash: string;
  resolve: (row: TokenRow | null) => void;
  reject: (error: unknown) => void;
}

// lastUsedAt is bookkeeping for the tokens page; write it at most once a minute per token.
const LAST_USED_RESOLUTION_MS = 60_000;

export interface TokenLookupOptions {
  /** The statement that reads tokens (defaults to {@link tokenReadFor}); tests wrap it to count or hold reads. */
  read?: TokenRead;
  /** Most lookups answered by one read. */
  maxBatch?: number;
  /** Reads in flight at once. */
  parallel?: number;
}

/**
 * The token lookups of concurrent requests, read together: lookups that arrive while a read is in
 * flight go into the next one (one statement for all their tokens; requests carrying the same token
 * share its row), so a burst of requests costs one authentication read instead of three round trips
 * each.
 *
 * What must stay true: each lookup is answered by a read that STARTED AFTER it was asked. Nothing
 * is cached beyond that, so a revocation, a role change or a removal that committed before a
 * request arrived is always seen by that request — no invalidation needed, in any process.
 */
export class TokenLookup {
  /** Tokens whose lastUsedAt write is in flight, so a burst writes it once. */
  private touching = new Set<string>();
  private readonly read: TokenRead;
  private readonly batches: BatchQueue<Pending>;

  constructor(
    private readonly db: Db,
    options: TokenLookupOptions = {},
  ) {
    this.read = options.read ?? tokenReadFor(db);
    this.batches = new BatchQueue((batch) => this.answer(batch), { maxBatch: options.maxBatch ?? 256, parallel: options.parallel ?? 2 });
  }

  /** The token with this hash, with its creator and membership as of a read started after this call; null if unknown. */
  find(hash: string): Promise<TokenRow | null> {
    return new Promise((resolve, reject) => this.batches.push({ hash, resolve, reject }));
  }

  private async answer(batch: Pending[]): Promise<void> {
    const rows = await this.read([...new Set(batch.map((p) => p.hash))]);
    const byHash = new Map(rows.map((row) => [row.tokenHash, row]));
    for (const pending of batch) pending.resolve(byHash.get(pending.hash) ?? null);
    this.touch(rows);
  }

  /**
   * Marks the tokens used, off the request path: one conditional write for the batch's stale
   * tokens, not awaited by any request (the tokens page shows use to the minute).
   */
  private touch(rows: TokenRow[]): void {
    const now = new Date();
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    const ids = rows
      .filter((row) => !row.revoked && (row.lastUsedAtMs === null || row.lastUsedAtMs < staleBefore.getTime()) && !this.touching.has(row.id))
      .map((row) => row.id);
    if (ids.length === 0) return;
    for (const id of ids) this.touching.add(id);
    touchTokens(this.db, ids, now, staleBefore)
      // A lost bookkeeping write (e.g. the database going away at shutdown) must not fail or log as a request error.
      .catch(() => undefined)
      .finally(() => {
        for (const id of ids) this.touching.delete(id);
      });
  }
}

const lookups = new WeakMap<Db, TokenLookup>();

/** The process's token lookup for a database client. */
export function tokenLookup(db: Db): TokenLookup {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = new TokenLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}
