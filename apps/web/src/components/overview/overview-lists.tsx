import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { formatCost } from '@/lib/run-format';

type Overview = RouterOutputs['overview']['get'];

function Empty({ children }: { children: ReactNode }) {
  return <p className="px-4 py-6 text-center text-xs text-muted">{children}</p>;
}

/** The live workers: host, load (running loops against concurrency) and the sandbox driver's health. */
export function WorkersCard({ workers }: { workers: Overview['workers'] }) {
  return (
    <Card>
      <CardHeader title="Workers" description="Live workers, their load and their sandbox." />
      {workers.length === 0 ? (
        <Empty>No worker is running: queued runs wait until one starts.</Empty>
      ) : (
        <ul className="divide-y divide-border" data-testid="overview-workers">
          {workers.map((w) => (
            <li key={w.workerId} className="flex items-center gap-3 px-4 py-2 text-xs" data-testid="overview-worker">
              <span className="min-w-0 flex-1 truncate font-mono" title={w.workerId}>
                {w.hostname}
              </span>
              <span className="tabular-nums" data-testid="overview-worker-load" title="Running loops / loops it runs at once">
                {w.activeLoops} / {w.concurrency ?? '?'}
              </span>
              <span className="font-mono text-muted" data-testid="overview-worker-drivers" title="The sandbox drivers it offers that work, its default first">
                {(w.drivers.length ? w.drivers : [w.driver]).join(' · ')}
              </span>
              {w.healthy ? <Badge tone="success">sandbox ok</Badge> : <Badge tone="danger">{w.reason ?? 'sandbox unavailable'}</Badge>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The latest failed runs with their reasons. */
export function FailuresCard({ failures, base, now }: { failures: Overview['failures']; base: string; now: number }) {
  return (
    <Card>
      <CardHeader
        title="Latest failures"
        description={
          <Link href={`${base}/runs?status=failed`} className="text-accent hover:underline">
            All failed runs
          </Link>
        }
      />
      {failures.length === 0 ? (
        <Empty>No run has failed.</Empty>
      ) : (
        <ul className="divide-y divide-border" data-testid="overview-failures">
          {failures.map((f) => (
            <li key={f.runId} className="flex flex-col gap-0.5 px-4 py-2 text-xs" data-testid="overview-failure">
              <div className="flex items-center gap-2">
                <Link href={`${base}/runs/${f.runId}`} className="min-w-0 flex-1 truncate font-medium text-foreground hover:underline">
                  {f.goal}
                </Link>
                {f.finishedAt ? (
                  <span className="shrink-0 text-muted" title={formatDateTime(f.finishedAt)}>
                    {formatRelative(f.finishedAt, now)}
                  </span>
                ) : null}
              </div>
              <span className="truncate text-danger" data-testid="overview-failure-reason">
                {f.error ?? 'no reason recorded'}
              </span>
              <span className="text-muted">{f.graph ? `graph ${f.graph}` : f.agent ? `agent ${f.agent}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The busiest agents or graphs: active runs, runs of the day and the day's spend, each a link to its runs. */
export function BusiestCard(props: { title: string; items: Overview['busiestAgents']; href: (id: string) => string; testId: string }) {
  return (
    <Card>
      <CardHeader title={props.title} description="By runs active now, then runs started in the last 24 hours." />
      {props.items.length === 0 ? (
        <Empty>Nothing ran in the last 24 hours.</Empty>
      ) : (
        <ul className="divide-y divide-border" data-testid={props.testId}>
          {props.items.map((item) => (
            <li key={item.id} className="flex items-center gap-3 px-4 py-2 text-xs" data-testid={`${props.testId}-row`}>
              <Link href={props.href(item.id)} className="min-w-0 flex-1 truncate font-medium text-foreground hover:underline">
                {item.name}
              </Link>
              <span className="tabular-nums" title="Runs active now">
                {item.active} active
              </span>
              <span className="tabular-nums text-muted" title="Runs started in the last 24 hours">
                {item.runs24h} today
              </span>
              <span className="w-16 text-right tabular-nums text-muted" title="Model spend in the last 24 hours">
                {formatCost(item.costMicros24h)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
