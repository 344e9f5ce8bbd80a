'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { hookUrl } from '@/lib/trigger-example';
import { TriggerActions } from './trigger-actions';
import type { ShownTriggerSecret } from './trigger-secret';
import { TriggerTarget } from './trigger-target';
import { useOrigin } from './use-origin';

type Trigger = RouterOutputs['triggers']['list'][number];

export const AUTH_LABEL = { standard_webhooks: 'Standard Webhooks', bearer: 'bearer' } as const;

/** One trigger: its name (to its deliveries), public URL, what it does, how it is authenticated, its state, and the admin's actions. */
export function TriggerRow(props: {
  teamId: string;
  base: string;
  trigger: Trigger;
  isAdmin: boolean;
  nameOf: (kind: 'agent' | 'graph', id: string) => string;
  onSecret: (shown: ShownTriggerSecret) => void;
}) {
  const { trigger } = props;
  const origin = useOrigin();
  return (
    <Tr data-testid="trigger-row" data-trigger-id={trigger.id} data-trigger-name={trigger.name} data-enabled={trigger.enabled}>
      <Td className="max-w-80 py-2">
        <Link href={`${props.base}/triggers/${trigger.id}`} className="font-medium hover:text-accent" data-testid="trigger-open">
          {trigger.name}
        </Link>
        <div className="mt-0.5 font-mono text-[11px] break-all text-muted" data-testid="trigger-row-url">
          {hookUrl(origin, trigger.path)}
        </div>
      </Td>
      <Td className="py-2">
        <TriggerTarget trigger={trigger} base={props.base} nameOf={props.nameOf} />
      </Td>
      <Td className="py-2 text-xs whitespace-nowrap">
        <div>{AUTH_LABEL[trigger.auth]}</div>
        <div className="text-muted">{trigger.rateLimitPerMinute}/min</div>
      </Td>
      <Td className="py-2">
        <Badge tone={trigger.enabled ? 'success' : 'neutral'} data-testid="trigger-row-state">
          {trigger.enabled ? 'enabled' : 'disabled'}
        </Badge>
      </Td>
      <Td className="py-2 text-right">{props.isAdmin ? <TriggerActions teamId={props.teamId} trigger={trigger} onSecret={props.onSecret} /> : null}</Td>
    </Tr>
  );
}
