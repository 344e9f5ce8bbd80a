'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import type { InvitationRow } from '@/lib/api-types';
import { formatDate, formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

const STATUS_TONE: Record<InvitationRow['status'], BadgeTone> = {
  pending: 'accent',
  accepted: 'success',
  declined: 'neutral',
  revoked: 'danger',
  expired: 'warning',
};

/** The team's invitations for its admins: who, which role, where each stands; a pending one can be revoked. */
export function InvitationsTable({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.teams.invitations.queryOptions({ teamId }));
  const revoke = useMutation(
    trpc.teams.revokeInvitation.mutationOptions({
      onSettled: () => queryClient.invalidateQueries(trpc.teams.invitations.queryFilter({ teamId })),
    }),
  );
  const rows = invitations.data ?? [];

  return (
    <Card>
      <CardHeader title="Invitations" description="Pending invitations expire after 7 days; revoke one to make its link stop working." />
      <InlineError error={invitations.error ?? revoke.error} testId="invitations-error" className="mx-4 my-3" />
      <Table>
        <thead>
          <tr>
            <Th>Email</Th>
            <Th className="w-28">Role</Th>
            <Th className="w-44">Invited</Th>
            <Th className="w-28">Status</Th>
            <Th className="w-28 text-right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {invitations.isPending ? <TableMessage colSpan={5}>Loading invitations…</TableMessage> : null}
          {!invitations.isPending && rows.length === 0 ? <TableMessage colSpan={5}>No invitations yet.</TableMessage> : null}
          {rows.map((row) => (
            <Tr key={row.id} data-testid="invitation-row" data-email={row.email} data-status={row.status}>
              <Td className="font-medium">{row.email}</Td>
              <Td>
                <Badge>{row.role}</Badge>
              </Td>
              <Td className="text-muted" title={formatDateTime(row.createdAt)}>
                {formatDate(row.createdAt)}
                {row.invitedBy ? ` by ${row.invitedBy}` : ''}
              </Td>
              <Td>
                <Badge tone={STATUS_TONE[row.status]} data-testid="invitation-status">
                  {row.status}
                </Badge>
              </Td>
              <Td className="text-right">
                {row.status === 'pending' || row.status === 'expired' ? (
                  <Button
                    size="sm"
                    variant="danger-ghost"
                    disabled={revoke.isPending}
                    data-testid="invitation-revoke"
                    onClick={() => revoke.mutate({ teamId, invitationId: row.id })}
                  >
                    Revoke
                  </Button>
                ) : null}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
