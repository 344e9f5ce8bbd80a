'use client';

import { useQuery } from '@tanstack/react-query';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { InvitationsTable } from './invitations-table';
import { InviteMemberForm } from './invite-member-form';
import { MembersTable } from './members-table';

/** Members of the team; admins invite, manage members and see invitations, everyone else reads. */
export function MembersPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const members = useQuery(trpc.teams.members.queryOptions({ teamId: team.id }));

  return (
    <div className="flex flex-col gap-6">
      {isAdmin ? <InviteMemberForm teamId={team.id} /> : null}
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              Members
              {members.data ? <Badge data-testid="member-count">{members.data.length}</Badge> : null}
            </span>
          }
          description={
            isAdmin
              ? 'Change a role with the select; removing a member also revokes their API tokens in this team.'
              : 'Only admins can change members. You have read-only access.'
          }
        />
        <InlineError error={members.error} testId="members-load-error" className="m-4" />
        <MembersTable teamId={team.id} members={members.data} loading={members.isPending} editable={isAdmin} />
      </Card>
      {isAdmin ? <InvitationsTable teamId={team.id} /> : null}
    </div>
  );
}
