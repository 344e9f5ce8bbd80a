import type { AppRouter } from '@looplane/api';
import type { inferRouterOutputs } from '@trpc/server';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';

type SandboxDriver = inferRouterOutputs<AppRouter>['system']['sandbox']['workers'][number]['drivers'][number];

const LIMIT_LABELS: Record<string, string> = {
  wallTimeMs: 'Wall time',
  cpus: 'CPU',
  memoryBytes: 'Memory',
  pids: 'Processes',
  outputBytes: 'Output',
  workspaceBytes: 'Workspace disk',
  workspaceFiles: 'Workspace files',
  tmpBytes: '/tmp size',
};

/** One driver on one host: works or not (with the reason), and each limit enforced or not, by what. */
export function DriverCard({ driver }: { driver: SandboxDriver }) {
  return (
    <div
      className={cn('rounded-md border p-3', driver.selected ? 'border-accent/40 bg-accent-soft/30' : 'border-border')}
      data-testid={`sandbox-driver-${driver.driver}`}
      data-works={driver.works ? 'true' : 'false'}
      data-offered={driver.offered ? 'true' : 'false'}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="font-mono text-[13px] font-semibold">{driver.driver}</span>
        <span className="flex items-center gap-1.5">
          {driver.selected ? <Badge tone="accent">default</Badge> : driver.offered ? <Badge tone="accent">offered</Badge> : null}
          {driver.works ? (
            <Badge tone="success" data-testid="sandbox-driver-status">
              works
            </Badge>
          ) : (
            <Badge tone="danger" data-testid="sandbox-driver-status">
              does not work
            </Badge>
          )}
        </span>
      </div>
      {driver.reason ? (
        <p className={cn('mt-2 text-xs', driver.works ? 'text-muted' : 'text-danger')} data-testid="sandbox-driver-reason">
          {driver.works ? 'Note: ' : 'Why: '}
          {driver.reason}
        </p>
      ) : null}
      <table className="mt-3 w-full text-left text-xs">
        <thead>
          <tr className="text-[10px] tracking-wide text-muted uppercase">
            <th className="pr-2 pb-1 font-medium">Limit</th>
            <th className="pr-2 pb-1 font-medium">Enforced</th>
            <th className="pb-1 font-medium">By</th>
          </tr>
        </thead>
        <tbody>
          {driver.limits.map((limit) => (
            <tr key={limit.limit} className="border-t border-border/60 align-top" data-testid={`sandbox-limit-${driver.driver}-${limit.limit}`}>
              <td className="py-1 pr-2">{LIMIT_LABELS[limit.limit] ?? limit.limit}</td>
              <td className={cn('py-1 pr-2', limit.enforced ? 'text-success' : 'text-danger')}>{limit.enforced ? 'yes' : 'no'}</td>
              <td className="py-1">
                <span className="font-mono">{limit.by ?? '—'}</span>
                {limit.note ? <span className="block text-muted">{limit.note}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
