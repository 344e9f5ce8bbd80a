'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { errorMessage } from '@/lib/error-message';
import { useTRPC } from '@/trpc/client';

type Endpoint = RouterOutputs['endpoints']['list'][number];

const dollars = (micros: number) => `$${(micros / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 6 })}`;

/** One endpoint: settings at a glance, and (for admins) test, edit and delete. */
export function EndpointRow({ teamId, endpoint, canManage, onEdit }: { teamId: string; endpoint: Endpoint; canManage: boolean; onEdit: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const test = useMutation(trpc.endpoints.test.mutationOptions());
  const remove = useMutation(
    trpc.endpoints.delete.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.endpoints.list.queryFilter({ teamId })) }),
  );
  const result = test.data;

  return (
    <Tr data-testid={`endpoint-row-${endpoint.name}`}>
      <Td className="font-medium">{endpoint.name}</Td>
      <Td>
        <Badge tone={endpoint.kind === 'faux' ? 'neutral' : 'accent'}>{endpoint.kind}</Badge>
      </Td>
      <Td className="font-mono text-xs">
        {endpoint.model}
        {endpoint.baseUrl ? <div className="text-muted">{endpoint.baseUrl}</div> : null}
      </Td>
      <Td className="font-mono text-xs">{endpoint.hasKey ? `…${endpoint.keyLast4}` : '—'}</Td>
      <Td className="text-xs">
        {dollars(endpoint.inputMicrosPerMTok)} / {dollars(endpoint.outputMicrosPerMTok)}
        <div className="text-muted">
          {endpoint.contextWindow.toLocaleString('en-US')} ctx · {endpoint.maxOutputTokens.toLocaleString('en-US')} out
        </div>
      </Td>
      <Td className="text-xs text-muted">{endpoint.agents.length ? endpoint.agents.map((a) => a.name).join(', ') : '—'}</Td>
      <Td className="text-xs">
        {test.isPending ? <span className="text-muted">Testing…</span> : null}
        {result?.ok ? (
          <span className="text-success" data-testid="endpoint-test-result">
            OK in {result.latencyMs} ms
          </span>
        ) : null}
        {result && !result.ok ? (
          <span className="text-danger" data-testid="endpoint-test-result">
            {result.error.status ? `${result.error.status} ` : ''}
            {result.error.message}
          </span>
        ) : null}
        {test.error ? (
          <span className="text-danger" data-testid="endpoint-test-result">
            {errorMessage(test.error)}
          </span>
        ) : null}
        {remove.error ? (
          <span className="text-danger" data-testid="endpoint-delete-error">
            {errorMessage(remove.error)}
          </span>
        ) : null}
      </Td>
      <Td className="text-right">
        {canManage ? (
          <span className="inline-flex gap-1">
            <Button size="sm" onClick={() => test.mutate({ teamId, endpointId: endpoint.id })} disabled={test.isPending} data-testid="endpoint-test">
              Test
            </Button>
            <Button size="sm" variant="ghost" onClick={onEdit} data-testid="endpoint-edit">
              Edit
            </Button>
            {confirming ? (
              <Button
                size="sm"
                variant="danger"
                onClick={() => remove.mutate({ teamId, endpointId: endpoint.id }, { onSettled: () => setConfirming(false) })}
                data-testid="endpoint-delete-confirm"
              >
                Delete it
              </Button>
            ) : (
              <Button size="sm" variant="danger-ghost" onClick={() => setConfirming(true)} data-testid="endpoint-delete">
                Delete
              </Button>
            )}
          </span>
        ) : null}
      </Td>
    </Tr>
  );
}
