'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { RouterOutputs } from '@/lib/api-types';
import { DecisionBadge } from './decision-badge';

/** The backtest's answer as it arrives over the stream: dates are ISO strings there. */
type Wire<T> = T extends Date ? string : T extends Array<infer U> ? Array<Wire<U>> : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;
export type BacktestResultView = Wire<RouterOutputs['policies']['backtest']>;

const OUTCOMES = ['allow', 'require_approval', 'deny'] as const;

/**
 * Recorded outcome (rows) → candidate outcome (columns), with each cell's count; a cell opens
 * the rules responsible and its examples, each linking to its run.
 */
export function BacktestMatrix({ result }: { result: BacktestResultView }) {
  const [selected, setSelected] = useState<string | null>(null);
  const cell = (from: string, to: string) => result.cells.find((c) => c.from === from && c.to === to);
  const open = selected ? result.cells.find((c) => `${c.from}-${c.to}` === selected) : undefined;
  return (
    <div className="flex flex-col gap-3" data-testid="backtest-result">
      <p className="text-[13px]" data-testid="backtest-summary">
        {result.total.toLocaleString()} recorded call{result.total === 1 ? '' : 's'} decided again: {result.changed.toLocaleString()} would be decided
        differently
        {result.skipped > 0 ? ` (${result.skipped} unreadable record${result.skipped === 1 ? '' : 's'} skipped)` : ''}.
      </p>
      {result.isolation.length > 0 ? (
        <p className="text-xs text-muted" data-testid="backtest-isolation">
          The calls it lets run would need at least:{' '}
          {result.isolation.map((entry, i) => (
            <span key={entry.level}>
              {i > 0 ? ', ' : ''}
              <code className="font-mono">{entry.level}</code> {entry.count.toLocaleString()}
            </span>
          ))}
          .
        </p>
      ) : null}
      <table className="w-full border-collapse text-[13px]" data-testid="backtest-matrix">
        <thead>
          <tr>
            <th className="p-1.5 text-left text-xs font-normal text-muted">recorded ↓ / candidate →</th>
            {OUTCOMES.map((to) => (
              <th key={to} className="p-1.5 text-left">
                <DecisionBadge outcome={to} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {OUTCOMES.map((from) => (
            <tr key={from}>
              <th className="p-1.5 text-left">
                <DecisionBadge outcome={from} />
              </th>
              {OUTCOMES.map((to) => {
                const count = cell(from, to)?.count ?? 0;
                const id = `${from}-${to}`;
                return (
                  <td key={to} className="p-1">
                    <button
                      type="button"
                      disabled={count === 0}
                      onClick={() => setSelected(selected === id ? null : id)}
                      aria-pressed={selected === id}
                      className={`w-full rounded-md border px-2 py-1.5 text-left font-mono tabular-nums ${from !== to && count > 0 ? 'border-warning/40 bg-warning-soft' : 'border-border'} ${selected === id ? 'ring-2 ring-accent' : ''} disabled:opacity-50`}
                      data-testid={`backtest-cell-${id}`}
                    >
                      {count.toLocaleString()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {open ? (
        <div className="flex flex-col gap-2 rounded-md border border-border bg-surface-2/50 p-3 text-[13px]" data-testid="backtest-cell-detail">
          <p className="font-medium">
            <DecisionBadge outcome={open.from} /> → <DecisionBadge outcome={open.to} />: {open.count.toLocaleString()} call{open.count === 1 ? '' : 's'}
          </p>
          <ul className="flex flex-col gap-0.5 text-xs" data-testid="backtest-rules">
            {open.rules.slice(0, 20).map((r) => (
              <li key={`${r.from}>${r.to}`}>
                <code className="font-mono">{r.from}</code> → <code className="font-mono">{r.to}</code>: {r.count.toLocaleString()}
              </li>
            ))}
          </ul>
          <ul className="flex flex-col gap-1.5" data-testid="backtest-examples">
            {open.examples.map((e) => (
              <li key={`${e.sessionId}:${e.callId}`} className="flex flex-col gap-0.5" data-testid="backtest-example">
                <code className="truncate rounded bg-surface px-1.5 py-0.5 font-mono text-xs" title={e.args}>
                  {e.tool} {e.args}
                </code>
                <span className="text-xs text-muted">
                  {new Date(e.at).toLocaleString()} · rule {e.fromRule} → {e.toRule} ·{' '}
                  <Link href={e.link} className="text-accent underline" data-testid="backtest-example-link">
                    run {e.runId.slice(0, 10)}
                    {e.seq !== null ? `, event ${e.seq}` : ''}
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
