import { FLUSH_ONE_SQL, FLUSH_SQL } from './append-sql';
import { combineCarried, type CarriedAudit } from '../audit/append-batch';
import type { PgPool, Queryable } from './pg-pool';
import { rowsOf } from '../sql/named-query';

/** One session's buffer as the flush statement takes it (see append-sql.ts). */
export interface FlushItem {
  sessionId: string;
  leaseOwner: string;
  leaseVersion: number;
  /** The seq the session's log ends at before this flush. */
  afterSeq: number;
  eventCount: number;
  leaseMs: number;
  /** Set when the events finish the session. */
  finishStatus: string | null;
  finishResult: string | null;
  finishError: string | null;
  /** run.started is among the events. */
  runStarted: boolean;
  spentTokens: number;
  spentCostMicros: number;
  toolStarts: number;
  /** Reservations were granted locally: refuse if the run ledger has a limit by now. */
  assumesUnlimited: boolean;
  /** The ledger change reserves on room the worker knew of: the statement fails (LL001) if the run ledger is over a limit after it. */
  checksLimits: boolean;
  /** The events as a JSON array text (`[{ type, version, payload, at }]`), built once by the unit. */
  eventsJson: string;
  inbox: { id: string; seq: number }[];
  ledger: {
    reserved_tokens: number;
    reserved_cost_micros: number;
    spent_tokens: number;
    spent_cost_micros: number;
    calls: number;
    entries: unknown[];
  } | null;
  /** Audit rows that commit with these events (a policy decision's), if the team's chain still ends where they were chained. */
  audit: CarriedAudit | null;
}

/**
 * A written session: the last event number it got (0 without events), and whether the audit rows
 * it carried were appended (true when it carried none). Null when its fence failed.
 */
export type FlushOutcome = { lastEventNo: number; audited: boolean } | null;

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/** One item as a record of the statement's input, written field by field: this runs for every flush of every session. */
function itemJson(item: FlushItem, position: number): string {
  return (
    `{"position":${position},"session_id":${text(item.sessionId)},"lease_owner":${text(item.leaseOwner)},` +
    `"lease_version":${item.leaseVersion},"after_seq":${item.afterSeq},"event_count":${item.eventCount},"lease_ms":${item.leaseMs},` +
    `"finish_status":${text(item.finishStatus)},"finish_result":${text(item.finishResult)},"finish_error":${text(item.finishError)},` +
    `"run_started":${item.runStarted},"spent_tokens":${item.spentTokens},"spent_cost_micros":${item.spentCostMicros},` +
    `"tool_starts":${item.toolStarts},"assumes_unlimited":${item.assumesUnlimited},"checks_limits":${item.checksLimits},` +
    `"inbox":${JSON.stringify(item.inbox)},` +
    `"ledger":${item.ledger ? JSON.stringify(item.ledger) : 'null'},"events":${item.eventsJson}}`
  );
}

function inputJson(items: readonly FlushItem[]): string {
  return `[${items.map(itemJson).join(',')}]`;
}

/** Runs the flush statement for `items` on `db`; per item, what it got. */
export async function flushItems(db: Queryable, items: readonly FlushItem[]): Promise<FlushOutcome[]> {
  if (items.length === 1) return [await flushOne(db, items[0]!)];
  // One chain per team for the whole statement, or none (each item's rows then take the locked path).
  const audit = combineCarried(items.map((item) => item.audit));
  const result = await db.query(FLUSH_SQL.bind({ sessions: inputJson(items), ...auditParams(audit) }));
  const outcomes: FlushOutcome[] = items.map(() => null);
  for (const row of rowsOf(FLUSH_SQL, result)) {
    const item = items[row.position]!;
    outcomes[row.position] = { lastEventNo: Number(row.last_event_no), audited: item.audit === null || (audit !== null && row.audited > 0) };
  }
  return outcomes;
}

const auditParams = (audit: CarriedAudit | null) => ({
  audit_rows: audit ? JSON.stringify(audit.rows) : null,
  audit_expected: audit ? JSON.stringify(audit.expected) : null,
});

async function flushOne(db: Queryable, item: FlushItem): Promise<FlushOutcome> {
  const result = await db.query(
    FLUSH_ONE_SQL.bind({
      session_id: item.sessionId,
      lease_owner: item.leaseOwner,
      lease_version: item.leaseVersion,
      after_seq: item.afterSeq,
      event_count: item.eventCount,
      events: item.eventsJson,
      lease_ms: item.leaseMs,
      finish_status: item.finishStatus,
      finish_result: item.finishResult,
      finish_error: item.finishError,
      run_started: item.runStarted,
      spent_tokens: item.spentTokens,
      spent_cost_micros: item.spentCostMicros,
      tool_starts: item.toolStarts,
      inbox: JSON.stringify(item.inbox),
      ledger: item.ledger ? JSON.stringify(item.ledger) : null,
      assumes_unlimited: item.assumesUnlimited,
      checks_limits: item.checksLimits,
      ...auditParams(item.audit),
    }),
  );
  const row = rowsOf(FLUSH_ONE_SQL, result)[0]!;
  return row.fenced === 1 ? { lastEventNo: Number(row.last_event_no ?? 0), audited: item.audit === null || row.audited > 0 } : null;
}

interface Pending {
  item: FlushItem;
  resolve: (outcome: FlushOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the sessions of one worker: flushes submitted while `parallel` statements are
 * being written wait and go together into the next one, one commit (one fsync) for all of them. With hundreds of
 * loops ending their model calls at the same moment, this turns hundreds of small transactions
 * into a few. A session alone is written at once. If a batch fails as a whole (a bad row, a
 * deadlock, a lost connection), each of its sessions is retried alone, so one session's problem
 * is never another's.
 */
export class FlushBatcher {
  private readonly queue: Pending[] = [];
  private running = 0;

  constructor(
    private readonly pool: PgPool,
    private readonly options: { maxBatch?: number; parallel?: number } = {},
  ) {}

  submit(item: FlushItem): Promise<FlushOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    const parallel = this.options.parallel ?? 2;
    while (this.running < parallel && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch ?? 256);
      this.running++;
      void this.write(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await flushItems(
        this.pool,
        batch.map((p) => p.item),
      );
      for (const [i, p] of batch.entries()) p.resolve(outcomes[i]!);
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const p of batch) {
        await flushItems(this.pool, [p.item]).then((outcomes) => p.resolve(outcomes[0]!), p.reject);
      }
    }
  }
}
