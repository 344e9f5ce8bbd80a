import type { GraphRunView } from './graph-types';

type Ledger = NonNullable<GraphRunView['edges'][number]['ledger']>;

/** One meter: used (spent + reserved) against a limit; no limit shows the amount alone. */
function Meter({ label, used, limit, testId }: { label: string; used: number; limit: number | null; testId: string }) {
  const share = limit ? Math.min(1, used / limit) : 0;
  return (
    <div className="flex items-center gap-2 text-xs" data-testid={testId} data-used={used} data-limit={limit ?? ''}>
      <span className="w-14 text-muted">{label}</span>
      <div className="h-1.5 w-32 overflow-hidden rounded bg-surface-2">
        <div className={share >= 0.9 ? 'h-full bg-danger' : 'h-full bg-accent'} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      <span className="tabular-nums">
        {used.toLocaleString()}
        {limit !== null ? ` / ${limit.toLocaleString()}` : ' (no limit)'}
      </span>
    </div>
  );
}

/** An edge's spend against its budget: tokens, cost, calls and active delegations. */
export function EdgeGauge({ ledger }: { ledger: Ledger }) {
  return (
    <div className="flex flex-col gap-1">
      <Meter label="tokens" used={ledger.spentTokens + ledger.reservedTokens} limit={ledger.limitTokens} testId="gauge-tokens" />
      <Meter label="µ$" used={ledger.spentCostMicros + ledger.reservedCostMicros} limit={ledger.limitCostMicros} testId="gauge-cost" />
      <Meter label="calls" used={ledger.calls} limit={ledger.limitCalls} testId="gauge-calls" />
      <Meter label="active" used={ledger.concurrent} limit={ledger.limitConcurrent} testId="gauge-active" />
    </div>
  );
}
