import type { ReactNode } from 'react';

/** Title row at the top of a dashboard page. */
export function PageHeader({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <header className="border-b border-border bg-surface/60 px-8 pt-6 pb-0">
      <h1 className="text-lg font-semibold tracking-tight" data-testid="page-title">
        {title}
      </h1>
      {description ? <p className="mt-0.5 text-muted">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </header>
  );
}
