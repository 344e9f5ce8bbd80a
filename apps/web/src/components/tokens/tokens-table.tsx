'use client';

import { roleAtLeast } from '@looplane/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import type { TokenRow } from '@/lib/api-types';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

type Status = 'active' | 'revoked' | 'expired';
const STATUS_TONE: Record<Status, BadgeTone> = { active: 'success', revoked: 'danger', expired: 'warning' };

function statusOf(token: TokenRow, now: number): Status {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** Token list with status and revoke (own tokens, or any as admin), confirmed inline. */
export function TokensTable(props: { teamId: string; tokens: TokenRow[] | undefined; loading: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { role, user } = useTeamScope();
  const [confirming, setConfirming] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: () => setConfirming(null),
      onSettled: () => queryClient.invalidateQueries(trpc.tokens.list.queryFilter({ teamId: props.teamId })),
    }),
  );
  const now = Date.now();
  const canRevoke = (token: TokenRow) => roleAtLeast(role, 'operator') && (role === 'admin' || token.createdBy.id === user.id);

  return (
    <>
      <InlineError error={revoke.error} testId="token-revoke-error" className="mx-4 my-3" />
      <Table>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Token</Th>
            <Th>Role</Th>
            <Th>Created by</Th>
            <Th>Created</Th>
            <Th>Last used</Th>
            <Th>Expires</Th>
            <Th>Status</Th>
            <Th className="text-right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {props.loading ? <TableMessage colSpan={9}>Loading tokens…</TableMessage> : null}
          {props.tokens?.length === 0 ? <TableMessage colSpan={9}>No tokens yet.</TableMessage> : null}
          {props.tokens?.map((token) => {
            const status = statusOf(token, now);
            return (
              <Tr key={token.id} data-testid="token-row" data-token-name={token.name} data-status={status}>
                <Td className="max-w-48 truncate font-medium whitespace-nowrap" title={token.name}>
                  {token.name}
                </Td>
                <Td className="font-mono text-xs whitespace-nowrap text-muted">{token.prefix}…</Td>
                <Td>
                  <Badge>{token.role}</Badge>
                </Td>
                <Td className="max-w-44 truncate text-muted" title={token.createdBy.email}>
                  {token.createdBy.email}
                </Td>
                <Td className="whitespace-nowrap text-muted" title={formatDateTime(token.createdAt)}>
                  {formatDate(token.createdAt)}
                </Td>
                <Td className="whitespace-nowrap text-muted" title={token.lastUsedAt ? formatDateTime(token.lastUsedAt) : undefined}>
                  {token.lastUsedAt ? formatRelative(token.lastUsedAt, now) : 'never'}
                </Td>
                <Td className="whitespace-nowrap text-muted" title={token.expiresAt ? formatDateTime(token.expiresAt) : undefined}>
                  {token.expiresAt ? formatDate(token.expiresAt) : 'never'}
                </Td>
                <Td>
                  <Badge tone={STATUS_TONE[status]} data-testid="token-status">
                    {status}
                  </Badge>
                </Td>
                <Td className="text-right whitespace-nowrap">
                  {status === 'active' && canRevoke(token) ? (
                    confirming === token.id ? (
                      <span className="inline-flex items-center gap-1.5">
                        <Button
                          size="sm"
                          variant="danger"
                          disabled={revoke.isPending}
                          data-testid="token-revoke-confirm"
                          onClick={() => revoke.mutate({ teamId: props.teamId, tokenId: token.id })}
                        >
                          Revoke now
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                          Cancel
                        </Button>
                      </span>
                    ) : (
                      <Button
                        size="sm"
                        variant="danger-ghost"
                        data-testid="token-revoke"
                        onClick={() => {
                          revoke.reset();
                          setConfirming(token.id);
                        }}
                      >
                        Revoke
                      </Button>
                    )
                  ) : null}
                </Td>
              </Tr>
            );
          })}
        </tbody>
      </Table>
    </>
  );
}
