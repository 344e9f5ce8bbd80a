import { appendAuditBatchPg, type AuditEntry, type AuditTails, type PgPool } from '@looplane/db';
import { BatchQueue } from '@looplane/shared';

interface Pending {
  entry: AuditEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Audit rows of policy decisions, group-committed: a decision is made on every tool call of every
 * session a worker drives, so rows recorded while a write is in flight go together into the next
 * one — one transaction, one advisory lock and one tail read per team, one INSERT for all rows
 * (`appendAuditBatch`, the same chain sequential appends would make). `record` resolves once its
 * row is durable, so a call never runs before its decision is in the chain. The chain tails this
 * worker wrote last are remembered, so a batch is usually chained before it is sent and written in
 * one round trip, holding the team's lock only while its statement runs.
 */
export class PolicyAudit {
  // Two writes at a time: while one commits, the next already waits on the team's chain lock with
  // its rows gathered (the lock orders them: the chain is the same); what arrives meanwhile is the
  // batch after. The audit holds at most two of the pool's connections.
  private readonly batches = new BatchQueue<Pending>((batch) => this.write(batch), { maxBatch: 2000, parallel: 2 });

  /**
   * @param tails The chain tails this process wrote last, shared with its other writers (the
   *   sessions' flushes that carry rows, WriteUnit.audit, and the effect decisions' audit).
   */
  constructor(
    private readonly pool: PgPool,
    readonly tails: AuditTails = new Map(),
  ) {}

  record(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => this.batches.push({ entry, resolve, reject }));
  }

  private async write(batch: Pending[]): Promise<void> {
    // On the worker's pg pool, not through the ORM: this runs on every tool call of every session.
    await appendAuditBatchPg(
      this.pool,
      batch.map((item) => item.entry),
      this.tails,
    );
    for (const item of batch) item.resolve();
  }
}
