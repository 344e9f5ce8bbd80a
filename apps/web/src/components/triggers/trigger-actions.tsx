'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import type { ShownTriggerSecret } from './trigger-secret';

type Trigger = RouterOutputs['triggers']['list'][number];

/** Enable or disable, rotate the secret (shown once) and delete, each destructive one asked twice; for admins. */
export function TriggerActions(props: { teamId: string; trigger: Trigger; onSecret: (shown: ShownTriggerSecret) => void; onDeleted?: () => void }) {
  const { teamId, trigger } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.triggers.pathFilter());
  const toggle = useMutation(trpc.triggers.update.mutationOptions({ onSettled: refresh }));
  const rotate = useMutation(
    trpc.triggers.rotateSecret.mutationOptions({
      onSuccess: (rotated) =>
        props.onSecret({
          triggerId: trigger.id,
          name: rotated.trigger.name,
          path: rotated.trigger.path,
          auth: rotated.trigger.auth,
          secret: rotated.secret,
          kind: 'rotated',
        }),
      onSettled: () => {
        setConfirming(null);
        return refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.triggers.delete.mutationOptions({
      onSuccess: () => props.onDeleted?.(),
      onSettled: () => {
        setConfirming(null);
        return refresh();
      },
    }),
  );
  const ref = { teamId, triggerId: trigger.id };

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-1">
        <Button
          size="sm"
          variant="ghost"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ ...ref, enabled: !trigger.enabled })}
          data-testid="trigger-toggle"
        >
          {trigger.enabled ? 'Disable' : 'Enable'}
        </Button>
        {confirming === 'rotate' ? (
          <Button size="sm" variant="danger" disabled={rotate.isPending} onClick={() => rotate.mutate(ref)} data-testid="trigger-rotate-confirm">
            Rotate now
          </Button>
        ) : (
          <Button size="sm" variant="ghost" onClick={() => setConfirming('rotate')} data-testid="trigger-rotate">
            Rotate secret
          </Button>
        )}
        {confirming === 'delete' ? (
          <Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(ref)} data-testid="trigger-delete-confirm">
            Delete it
          </Button>
        ) : (
          <Button size="sm" variant="danger-ghost" onClick={() => setConfirming('delete')} data-testid="trigger-delete">
            Delete
          </Button>
        )}
        {confirming ? (
          <Button size="sm" variant="ghost" onClick={() => setConfirming(null)} data-testid="trigger-confirm-cancel">
            Cancel
          </Button>
        ) : null}
      </div>
      <InlineError error={toggle.error ?? rotate.error ?? remove.error} testId="trigger-action-error" className="text-left text-xs" />
    </div>
  );
}
