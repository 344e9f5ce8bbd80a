'use client';

import type { Role } from '@looplane/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { RoleSelect } from '@/components/ui/role-select';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import type { Member } from '@/lib/api-types';
import { formatDate, formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

/** The member list; with `editable`, role selects and remove buttons (with confirmation). */
export function MembersTable(props: { teamId: string; members: Member[] | undefined; loading: boolean; editable: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useTeamScope();
  const [confirming, setConfirming] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.teams.members.queryFilter({ teamId: props.teamId }));
  const router = useRouter();
  const setRole = useMutation(
    trpc.teams.setRole.mutationOptions({
      onSettled: refresh,
      // Your own role drives the whole shell (sidebar, forms): re-render it from the server.
      onSuccess: (result) => (result.userId === user.id ? router.refresh() : undefined),
    }),
  );
  const remove = useMutation(trpc.teams.removeMember.mutationOptions({ onSettled: refresh, onSuccess: () => setConfirming(null) }));
  const error = setRole.error ?? remove.error;
  const busy = setRole.isPending || remove.isPending;

  return (
    <>
      <InlineError error={error} testId="members-error" className="mx-4 my-3" />
      <Table>
        <thead>
          <tr>
            <Th>Member</Th>
            <Th className="w-40">Role</Th>
            <Th className="w-36">Joined</Th>
            {props.editable ? <Th className="w-44 text-right">Actions</Th> : null}
          </tr>
        </thead>
        <tbody>
          {props.loading ? <TableMessage colSpan={4}>Loading members…</TableMessage> : null}
          {props.members?.map((member) => (
            <Tr key={member.userId} data-testid="member-row" data-email={member.email}>
              <Td>
                <div className="flex items-center gap-3">
                  <span
                    aria-hidden
                    className="grid size-7 shrink-0 place-items-center rounded-full bg-surface-2 text-[11px] font-semibold text-muted uppercase ring-1 ring-border"
                  >
                    {(member.name ?? member.email).slice(0, 2)}
                  </span>
                  <div className="min-w-0">
                    <div className="flex items-center gap-2">
                      <span className="truncate font-medium">{member.name ?? member.email}</span>
                      {member.userId === user.id ? <Badge tone="accent">you</Badge> : null}
                    </div>
                    {member.name ? <div className="truncate text-xs text-muted">{member.email}</div> : null}
                  </div>
                </div>
              </Td>
              <Td>
                {props.editable ? (
                  <RoleSelect
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    disabled={busy}
                    containerClassName="w-32"
                    className="h-7 text-xs"
                    data-testid="member-role"
                    onChange={(event) => {
                      remove.reset();
                      setRole.mutate({ teamId: props.teamId, userId: member.userId, role: event.target.value as Role });
                    }}
                  />
                ) : (
                  <Badge tone={member.role === 'admin' ? 'accent' : 'neutral'} data-testid="member-role-label">
                    {member.role}
                  </Badge>
                )}
              </Td>
              <Td className="text-muted" title={formatDateTime(member.joinedAt)}>
                {formatDate(member.joinedAt)}
              </Td>
              {props.editable ? (
                <Td className="text-right">
                  {confirming === member.userId ? (
                    <span className="inline-flex items-center gap-1.5">
                      <span className="text-xs text-muted">Remove?</span>
                      <Button
                        size="sm"
                        variant="danger"
                        disabled={busy}
                        data-testid="member-remove-confirm"
                        onClick={() => {
                          setRole.reset();
                          remove.mutate({ teamId: props.teamId, userId: member.userId });
                        }}
                      >
                        Remove
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                        Cancel
                      </Button>
                    </span>
                  ) : (
                    <Button size="sm" variant="danger-ghost" disabled={busy} data-testid="member-remove" onClick={() => setConfirming(member.userId)}>
                      Remove
                    </Button>
                  )}
                </Td>
              ) : null}
            </Tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}
