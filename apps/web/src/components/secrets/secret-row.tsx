'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { errorMessage } from '@/lib/error-message';
import { useTRPC } from '@/trpc/client';
import { FORGE_LABELS, KIND_LABELS } from './secret-kinds';

type Secret = RouterOutputs['secrets']['list']['secrets'][number];

/** One secret: its name, kind (and a token's forge), last 4 characters, where the policy uses it; replace and delete. */
export function SecretRow({ teamId, secret, onReplace }: { teamId: string; secret: Secret; onReplace: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.secrets.delete.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.secrets.list.queryFilter({ teamId })) }),
  );

  return (
    <Tr data-testid={`secret-row-${secret.name}`}>
      <Td className="font-mono text-xs font-medium">{secret.name}</Td>
      <Td className="text-xs" data-testid="secret-kind-cell">
        <span className="inline-flex flex-wrap items-center gap-1">
          <Badge>{KIND_LABELS[secret.kind]}</Badge>
          {secret.forge ? (
            <span title={secret.apiUrl ? `API: ${secret.apiUrl}` : 'API derived from the repository host'}>
              <Badge tone="accent">{FORGE_LABELS[secret.forge]}</Badge>
            </span>
          ) : null}
          {secret.username ? <span className="font-mono text-muted">as {secret.username}</span> : null}
        </span>
      </Td>
      <Td className="font-mono text-xs">…{secret.last4}</Td>
      <Td className="text-xs text-muted">
        {secret.usedBy.length ? secret.usedBy.map((use) => `${use.header} → ${use.host}`).join(', ') : 'not used by the active policy'}
      </Td>
      <Td className="text-xs text-muted">{new Date(secret.updatedAt).toLocaleString()}</Td>
      <Td className="text-right">
        <span className="inline-flex items-center gap-1">
          {remove.error ? (
            <span className="text-xs text-danger" data-testid="secret-delete-error">
              {errorMessage(remove.error)}
            </span>
          ) : null}
          <Button size="sm" variant="ghost" onClick={onReplace} data-testid="secret-replace">
            Replace
          </Button>
          {confirming ? (
            <Button
              size="sm"
              variant="danger"
              onClick={() => remove.mutate({ teamId, name: secret.name }, { onSettled: () => setConfirming(false) })}
              data-testid="secret-delete-confirm"
            >
              Delete it
            </Button>
          ) : (
            <Button size="sm" variant="danger-ghost" onClick={() => setConfirming(true)} data-testid="secret-delete">
              Delete
            </Button>
          )}
        </span>
      </Td>
    </Tr>
  );
}
