import { appendAudit, type AuditEntry, type Db } from '@looplane/db';

interface Pending {
  entry: AuditEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Audit rows of policy decisions, group-committed: a decision is made on every tool call of every
 * session a worker drives, so rows recorded while a write is in flight go together in the next
 * one (one transaction per team). `record` resolves once its row is durable, so a call never
 * runs before its decision is in the chain.
 */
export class PolicyAudit {
  private queue: Pending[] = [];
  private writing: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  record(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (!this.writing) this.writing = this.drain();
    });
  }

  private async drain(): Promise<void> {
    // Let the current turn of the event loop add its rows first.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const byTeam = new Map<string, Pending[]>();
      for (const item of batch) {
        const list = byTeam.get(item.entry.teamId) ?? [];
        list.push(item);
        byTeam.set(item.entry.teamId, list);
      }
      // One transaction at a time: the audit never holds more than one of the pool's connections.
      for (const items of byTeam.values()) await this.write(items);
    }
    this.writing = null;
  }

  private async write(items: Pending[]): Promise<void> {
    try {
      // Generous waits: under load the pool is busy with the sessions' own writes.
      await this.db.$transaction(
        async (tx) => {
          for (const item of items) await appendAudit(tx, item.entry);
        },
        { maxWait: 10_000, timeout: 30_000 },
      );
      for (const item of items) item.resolve();
    } catch (error) {
      for (const item of items) item.reject(error);
    }
  }
}
