import Link from 'next/link';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** One figure of the overview: a link to the list behind it, with what the number counts. */
export function StatTile(props: {
  href: string;
  label: string;
  value: ReactNode;
  note?: ReactNode;
  tone?: 'neutral' | 'warning' | 'danger';
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div
      className={cn(
        'flex flex-col rounded-lg border bg-surface p-4 shadow-xs',
        props.tone === 'danger' ? 'border-danger/40' : props.tone === 'warning' ? 'border-warning/50' : 'border-border',
      )}
      data-testid={props.testId}
    >
      <Link
        href={props.href}
        className="group flex flex-col rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
        data-testid={`${props.testId}-link`}
      >
        <span className="text-xs font-medium text-muted group-hover:text-foreground">{props.label}</span>
        <span className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`${props.testId}-value`}>
          {props.value}
        </span>
        {props.note ? <span className="mt-0.5 text-xs text-muted">{props.note}</span> : null}
      </Link>
      {props.children}
    </div>
  );
}

/** A smaller figure inside a tile (e.g. waiting runs by reason), itself a link. */
export function SubStat(props: { href: string; label: string; value: number; testId: string }) {
  return (
    <Link
      href={props.href}
      data-testid={props.testId}
      className="inline-flex items-center gap-1 rounded border border-border px-1.5 py-0.5 text-[11px] text-muted hover:border-border-strong hover:text-foreground"
    >
      {props.label}{' '}
      <span className="font-semibold tabular-nums text-foreground" data-testid={`${props.testId}-value`}>
        {props.value}
      </span>
    </Link>
  );
}
