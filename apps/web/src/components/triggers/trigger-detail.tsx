'use client';

import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { hookUrl } from '@/lib/trigger-example';
import { useTRPC } from '@/trpc/client';
import { TriggerActions } from './trigger-actions';
import { TriggerDeliveries } from './trigger-deliveries';
import { AUTH_LABEL } from './trigger-row';
import { TriggerSecret, type ShownTriggerSecret } from './trigger-secret';
import { TriggerTarget } from './trigger-target';
import { useOrigin } from './use-origin';
import { useTargetNames } from './use-target-names';

/** One trigger: its URL, what it does, how it is authenticated, the admin's actions, and every delivery it took or refused. */
export function TriggerDetail({ triggerId }: { triggerId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { team, role } = useTeamScope();
  const base = `/t/${team.slug}`;
  const trigger = useQuery(trpc.triggers.get.queryOptions({ teamId: team.id, triggerId }));
  const nameOf = useTargetNames(team.id);
  const origin = useOrigin();
  const [shown, setShown] = useState<ShownTriggerSecret | null>(null);
  const data = trigger.data;

  return (
    <div className="flex flex-col gap-6">
      <Link href={`${base}/triggers`} className="inline-flex items-center gap-1.5 text-xs text-muted hover:text-foreground" data-testid="trigger-back">
        <ArrowLeft className="size-3.5" aria-hidden />
        All triggers
      </Link>
      <InlineError error={trigger.error} testId="trigger-load-error" />
      {shown ? <TriggerSecret shown={shown} onDismiss={() => setShown(null)} /> : null}
      {data ? (
        <Card>
          <CardHeader
            title={
              <span className="flex flex-wrap items-center gap-2">
                <span data-testid="trigger-title">{data.name}</span>
                <Badge tone={data.enabled ? 'success' : 'neutral'} data-testid="trigger-state">
                  {data.enabled ? 'enabled' : 'disabled'}
                </Badge>
              </span>
            }
            description={
              <span className="font-mono break-all" data-testid="trigger-detail-url">
                POST {hookUrl(origin, data.path)}
              </span>
            }
            actions={
              role === 'admin' ? <TriggerActions teamId={team.id} trigger={data} onSecret={setShown} onDeleted={() => router.push(`${base}/triggers`)} /> : null
            }
          />
          <div className="grid gap-4 p-4 sm:grid-cols-3">
            <div className="sm:col-span-2">
              <TriggerTarget trigger={data} base={base} nameOf={nameOf} full />
            </div>
            <div className="text-xs">
              {AUTH_LABEL[data.auth]} · up to {data.rateLimitPerMinute} deliveries a minute
            </div>
          </div>
        </Card>
      ) : null}
      <Card>
        <CardHeader title="Deliveries" description="Every request to the URL, accepted or refused, newest first." />
        <TriggerDeliveries teamId={team.id} triggerId={triggerId} base={base} />
      </Card>
    </div>
  );
}
