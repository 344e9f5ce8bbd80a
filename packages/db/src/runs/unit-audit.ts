import { AppError } from '@looplane/shared';
import { chainForFlush, forgetCarried, type AuditTails, type CarriedAudit } from '../audit/append-batch';
import type { AuditEntry } from '../audit/audit.repository';

/** How a unit appends audit rows: carried by its flush, else through the worker's locked path. */
export interface UnitAudit {
  /** The chain tails the worker last wrote, shared by all its writers: what a carried row is chained onto. */
  tails: AuditTails;
  /** The locked path (resolves once the row is durable), for a row a flush could not carry. */
  append: (entry: AuditEntry) => Promise<void>;
}

interface QueuedAudit {
  entry: AuditEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Rows one flush carries, and what becomes of them once it answered. */
export interface CarriedRows {
  carried: CarriedAudit;
  /** The flush appended them, or not: then the chain moved (or the write failed) and they take the locked path. */
  settle(appended: boolean): void;
}

/**
 * The audit rows a write unit holds until its next flush (WriteUnit.audit): that flush carries
 * them, chained onto the team's tail this worker last wrote, or they take the locked path. Each
 * row's promise resolves once it is in the chain, whichever way it went.
 */
export class AuditQueue {
  private queued: QueuedAudit[] = [];

  constructor(private readonly chains: UnitAudit | undefined) {}

  get empty(): boolean {
    return this.queued.length === 0;
  }

  push(entry: AuditEntry): Promise<void> {
    if (!this.chains) throw new AppError('INTERNAL', 'this write unit has no audit chains to append to');
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ entry, resolve, reject });
    });
  }

  /**
   * Takes every queued row for a flush: chained for it to carry, or, when they cannot be (not
   * `carriable`, no tail known yet for a team), sent down the locked path at once (null).
   */
  takeForFlush(carriable: boolean): CarriedRows | null {
    const taken = this.take();
    const carried =
      carriable && this.chains && taken.length > 0
        ? chainForFlush(
            taken.map((q) => q.entry),
            this.chains.tails,
          )
        : null;
    if (!carried) {
      this.appendLocked(taken);
      return null;
    }
    return {
      carried,
      settle: (appended) => {
        if (appended) for (const queued of taken) queued.resolve();
        else {
          forgetCarried(carried, this.chains!.tails);
          this.appendLocked(taken);
        }
      },
    };
  }

  /** Every queued row down the locked path now (a transaction is open, or the unit's write failed). */
  handOff(): void {
    this.appendLocked(this.take());
  }

  private take(): QueuedAudit[] {
    const taken = this.queued;
    this.queued = [];
    return taken;
  }

  /** The locked path for each row, in order (it chains them in the order handed over). */
  private appendLocked(rows: readonly QueuedAudit[]): void {
    for (const queued of rows) this.chains!.append(queued.entry).then(queued.resolve, queued.reject);
  }
}
