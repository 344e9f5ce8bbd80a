'use client';

import { useQuery } from '@tanstack/react-query';
import type { AppRouter } from '@looplane/api';
import type { inferRouterOutputs } from '@trpc/server';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { DriverCard } from './driver-card';

type SandboxWorker = inferRouterOutputs<AppRouter>['system']['sandbox']['workers'][number];

/**
 * The sandbox capability check of each live worker: which drivers work on its host (and why
 * not), which limits hold and by what. Workers record it at start; refreshed every 15 s.
 */
export function SandboxPanel() {
  const trpc = useTRPC();
  const { team } = useTeamScope();
  const sandbox = useQuery({ ...trpc.system.sandbox.queryOptions({ teamId: team.id }), refetchInterval: 15_000 });
  const workers = sandbox.data?.workers;

  return (
    <div className="flex flex-col gap-6" data-testid="sandbox-panel">
      <p className="text-muted">
        Every agent tool call runs in a sandbox in the session&apos;s workspace. Isolation levels, weakest first: <code className="font-mono">none</code>{' '}
        (development only) &lt; <code className="font-mono">bwrap</code> &lt; <code className="font-mono">podman</code> &lt;{' '}
        <code className="font-mono">gvisor</code> &lt; <code className="font-mono">microvm</code>. A call runs on the worker&apos;s default driver unless its
        agent, graph node or the team policy asks for a stronger level; then it runs on a stronger driver the worker offers, or is refused with the reason,
        never run weaker. Each worker checks at start which drivers work on its host.
      </p>
      <InlineError error={sandbox.error} testId="sandbox-load-error" />
      {sandbox.isPending ? <p className="text-muted">Loading the workers&apos; sandbox checks…</p> : null}
      {workers && workers.length === 0 ? (
        <p className="rounded-md border border-border bg-surface-2/60 px-4 py-3 text-muted" data-testid="sandbox-no-workers">
          No worker is running. Start one (<code className="font-mono">npm start</code> starts one) and its sandbox check appears here.
        </p>
      ) : null}
      {workers?.map((worker) => (
        <WorkerCard key={worker.workerId} worker={worker} />
      ))}
    </div>
  );
}

function WorkerCard({ worker }: { worker: SandboxWorker }) {
  return (
    <Card>
      <div data-testid={`sandbox-worker-${worker.workerId}`}>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              Worker <span className="font-mono text-[12px]">{worker.workerId}</span>
              <span className="font-normal text-muted">
                on {worker.hostname} (pid {worker.pid})
              </span>
            </span>
          }
          description={`Checked ${worker.probedAt.toLocaleString()}; runs tools with ${worker.selectedDriver}${offeredBeyond(worker)}.`}
          actions={
            worker.available ? (
              <Badge tone="success" data-testid="sandbox-worker-status">
                sandboxed tools available
              </Badge>
            ) : (
              <Badge tone="danger" data-testid="sandbox-worker-status">
                tool calls fail
              </Badge>
            )
          }
        />
        {!worker.available && worker.reason ? (
          <p className="mx-4 mt-3 rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-[13px] text-danger" data-testid="sandbox-worker-reason">
            {worker.reason}
          </p>
        ) : null}
        <div className="grid gap-4 p-4 lg:grid-cols-3">
          {worker.drivers.map((driver) => (
            <DriverCard key={driver.driver} driver={driver} />
          ))}
          {worker.drivers.length < 4 ? <p className="text-xs text-muted">The other drivers are still being checked…</p> : null}
        </div>
      </div>
    </Card>
  );
}

/** ", and offers gvisor for calls that need it", or nothing when the worker offers only its default. */
function offeredBeyond(worker: { selectedDriver: string; drivers: { driver: string; offered: boolean }[] }): string {
  const more = worker.drivers.filter((d) => d.offered && d.driver !== worker.selectedDriver).map((d) => d.driver);
  return more.length ? `, and offers ${more.join(', ')} for calls that need it` : '';
}
