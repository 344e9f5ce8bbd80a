import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/**
 * A table in a horizontally scrolling box. The box takes keyboard focus so that a table wider than
 * the page can be scrolled without a mouse (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function Table({ children, className }: { children: ReactNode; className?: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse
    <div className="overflow-x-auto" tabIndex={0}>
      <table className={cn('w-full border-collapse text-left text-[13px]', className)}>{children}</table>
    </div>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        'h-8 border-b border-border bg-surface-2/60 px-3 first:pl-4 last:pr-4 text-[11px] font-medium tracking-wide text-muted uppercase',
        className,
      )}
      {...props}
    />
  );
}

export function Tr({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('border-b border-border last:border-b-0 hover:bg-surface-2/40', className)} {...props} />;
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('h-10 px-3 align-middle first:pl-4 last:pr-4', className)} {...props} />;
}

/** A full-width row for loading / empty states. */
export function TableMessage({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-8 text-center text-muted">
        {children}
      </td>
    </tr>
  );
}
