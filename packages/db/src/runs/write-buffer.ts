import { storableText, storedPayload, type EngineEvent, type NewEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { FlushItem } from './flush-batcher';
import { projectBatch, type BatchProjection, type TerminalStatus } from './projection';

/** The fencing token: who holds the session's lease, at which version. */
export interface SessionLease {
  runId: string;
  sessionId: string;
  owner: string;
  version: number;
}

/** What became durable with one flush: its last event (for the live bus) and, once, a finished session. */
export interface DurableAppend {
  runId: string;
  sessionId: string;
  eventNo: number;
  type: string;
  /** Set when this flush finished the session. */
  finished: TerminalStatus | null;
}

interface LedgerEntry {
  kind: 'reserve' | 'charge' | 'release' | 'call';
  tokens: number;
  costMicros: number;
  calls: number;
  reservation: string;
}

/** A change to the run ledger, applied by the next flush (settlements, reservations granted locally). */
export interface LedgerChange {
  reservedTokens: number;
  reservedCostMicros: number;
  spentTokens: number;
  spentCostMicros: number;
  calls: number;
  entries: LedgerEntry[];
  /** The change grants a reservation without a check: valid only while the ledger has no limit. */
  assumesUnlimited: boolean;
  /** The change reserves on room the worker knew of: the flush checks the limits (append-sql.ts). */
  checksLimits: boolean;
}

const noChange = (): LedgerChange => ({
  reservedTokens: 0,
  reservedCostMicros: 0,
  spentTokens: 0,
  spentCostMicros: 0,
  calls: 0,
  entries: [],
  assumesUnlimited: false,
  checksLimits: false,
});

const copyOf = (l: LedgerChange): LedgerChange => ({ ...l, entries: [...l.entries] });

/**
 * JSON text of a payload. Postgres `jsonb` refuses NUL characters and unpaired surrogates: they
 * are stored as U+FFFD. The engine already replaces them in what a model says (and marks the event
 * `sanitized`); this is the store's own guarantee for every other text (tool output, errors), so
 * no text can make an append fail for good. `JSON.stringify` escapes exactly these (a NUL as
 * `\u0000`, an unpaired surrogate as `\udXXX`; a valid pair is written as is), so they are found
 * in the text without walking the payload.
 */
function payloadText(payload: unknown): string {
  const text = JSON.stringify(payload);
  // An escape preceded by an even number of backslashes is an escaped character, not escaped text.
  return text.includes('\\u0000') || text.includes('\\ud') ? text.replaceAll(/(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g, '$1\\ufffd') : text;
}

/** A result or error column: `text` refuses NUL too, and the batch flush passes it through `jsonb`. */
export const storableColumn = (value: string | null | undefined): string | null => (value == null ? null : storableText(value));

/** The flush statement's JSON text of a batch of events, each payload as the log keeps it (`storedPayload`). */
export function eventsJson(events: readonly NewEvent[]): string {
  return `[${events.map((e) => `{"type":${JSON.stringify(e.type)},"version":${e.v},"at":${JSON.stringify(e.at)},"payload":${payloadText(storedPayload(e))}}`).join(',')}]`;
}

/** What one flush writes for a session, taken out of the buffer. */
export interface TakenWrite {
  item: FlushItem;
  events: NewEvent[];
  projection: BatchProjection;
  /**
   * With a reservation granted ahead of its check: what the buffer held before it, to be written
   * alone if the flush finds the ledger over its limit (built only then).
   */
  beforeReservation: (() => TakenWrite) | null;
}

type Batch = { events: NewEvent[]; afterSeq: number; inbox: { id: string; seq: number }[] };

/** A session's appends and ledger change since the last flush, in memory. */
export class WriteBuffer {
  private batches: Batch[] = [];
  private ledger = noChange();
  /** The buffer as it was before its first reservation granted ahead of its check. */
  private checkpoint: { batches: number; ledger: LedgerChange } | null = null;

  /** Adds a batch that must follow the last one; returns it numbered. */
  push(sessionId: string, events: readonly NewEvent[], afterSeq: number, inboxIds: readonly string[]): EngineEvent[] {
    const last = this.batches.at(-1);
    if (last && afterSeq !== last.afterSeq + last.events.length) {
      throw new AppError('CONFLICT', `append expected session ${sessionId} to end at seq ${afterSeq}, but it ends at ${last.afterSeq + last.events.length}`);
    }
    if (events.length === 0) return [];
    this.batches.push({ events: [...events], afterSeq, inbox: inboxIds.map((id, i) => ({ id, seq: afterSeq + 1 + i })) });
    return events.map((event, i) => ({ ...event, seq: afterSeq + 1 + i }) as EngineEvent);
  }

  changeLedger(change: Partial<Omit<LedgerChange, 'entries'>> & { entries?: LedgerEntry[] }): void {
    const l = this.ledger;
    l.reservedTokens += change.reservedTokens ?? 0;
    l.reservedCostMicros += change.reservedCostMicros ?? 0;
    l.spentTokens += change.spentTokens ?? 0;
    l.spentCostMicros += change.spentCostMicros ?? 0;
    l.calls += change.calls ?? 0;
    l.entries.push(...(change.entries ?? []));
    l.assumesUnlimited ||= change.assumesUnlimited ?? false;
  }

  /**
   * A reservation granted on room the worker knew of: applied like any ledger change, checked by
   * the flush. The buffer remembers what it held before, for a flush that finds no room.
   */
  reserveAhead(change: Pick<LedgerChange, 'reservedTokens' | 'reservedCostMicros' | 'entries'>): void {
    this.checkpoint ??= { batches: this.batches.length, ledger: copyOf(this.ledger) };
    this.changeLedger(change);
    this.ledger.checksLimits = true;
  }

  /** Nothing to write (a ledger change that only assumes an unlimited ledger writes nothing). */
  get empty(): boolean {
    return this.batches.length === 0 && this.ledger.entries.length === 0 && this.ledger.calls === 0;
  }

  /** It holds a reservation granted ahead of its check. */
  get reservesAhead(): boolean {
    return this.ledger.checksLimits;
  }

  /** The log position the buffer starts at, if it holds events. */
  get afterSeq(): number | undefined {
    return this.batches[0]?.afterSeq;
  }

  /** Empties the buffer into one flush item (`afterSeq`: where the log ends, for a buffer without events). */
  take(lease: SessionLease, leaseTtlMs: number, afterSeq: number): TakenWrite {
    const { batches, ledger, checkpoint } = this;
    this.clear();
    const taken = build(batches, ledger, lease, leaseTtlMs, afterSeq);
    if (checkpoint) taken.beforeReservation = () => build(batches.slice(0, checkpoint.batches), checkpoint.ledger, lease, leaseTtlMs, afterSeq);
    return taken;
  }

  clear(): void {
    this.batches = [];
    this.ledger = noChange();
    this.checkpoint = null;
  }
}

/** One flush item from a buffer's batches and ledger change. */
function build(batches: readonly Batch[], ledger: LedgerChange, lease: SessionLease, leaseTtlMs: number, afterSeq: number): TakenWrite {
  const events = batches.flatMap((b) => b.events);
  const projection = projectBatch(events);
  const ledgerChanged = ledger.entries.length > 0 || ledger.calls !== 0;
  const item: FlushItem = {
    sessionId: lease.sessionId,
    leaseOwner: lease.owner,
    leaseVersion: lease.version,
    afterSeq,
    eventCount: events.length,
    leaseMs: leaseTtlMs,
    finishStatus: projection.finished?.status ?? null,
    finishResult: storableColumn(projection.finished?.result),
    finishError: storableColumn(projection.finished?.error),
    runStarted: projection.started,
    spentTokens: projection.spentTokens,
    spentCostMicros: projection.spentCostMicros,
    toolStarts: projection.toolCalls,
    assumesUnlimited: ledger.assumesUnlimited,
    checksLimits: ledger.checksLimits,
    eventsJson: eventsJson(events),
    inbox: batches.flatMap((b) => b.inbox),
    ledger: ledgerChanged
      ? {
          reserved_tokens: ledger.reservedTokens,
          reserved_cost_micros: ledger.reservedCostMicros,
          spent_tokens: ledger.spentTokens,
          spent_cost_micros: ledger.spentCostMicros,
          calls: ledger.calls,
          entries: ledger.entries,
        }
      : null,
    audit: null,
  };
  return { item, events, projection, beforeReservation: null };
}
