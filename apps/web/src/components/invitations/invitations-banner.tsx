'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailOpen } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { formatDate } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

/**
 * The signed-in person's pending team invitations, each with Accept (join with the invited role,
 * then open the team) and Decline. Renders nothing while there are none.
 */
export function InvitationsBanner() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const mine = useQuery(trpc.invitations.mine.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.invitations.mine.queryFilter());
  const accept = useMutation(
    trpc.invitations.accept.mutationOptions({
      onSettled: refresh,
      // The new team is in the shell's team list only after a server render.
      onSuccess: (joined) => {
        router.push(`/t/${joined.slug}`);
        router.refresh();
      },
    }),
  );
  const decline = useMutation(trpc.invitations.decline.mutationOptions({ onSettled: refresh }));
  const invitations = mine.data ?? [];
  if (invitations.length === 0 && !accept.error && !decline.error) return null;
  const busy = accept.isPending || decline.isPending;

  return (
    <section aria-label="Team invitations" className="flex flex-col gap-2 border-b border-accent/20 bg-accent-soft px-6 py-3" data-testid="invitations-banner">
      <InlineError error={accept.error ?? decline.error} testId="invitations-banner-error" />
      {invitations.map((invitation) => (
        <div key={invitation.id} className="flex flex-wrap items-center gap-3 text-[13px]" data-testid="invitation-item" data-team={invitation.team.slug}>
          <MailOpen aria-hidden className="size-4 shrink-0 text-accent" />
          <p className="min-w-0 flex-1">
            {invitation.invitedBy ?? 'A team admin'} invited you to join <span className="font-semibold">{invitation.team.name}</span> as{' '}
            <span className="font-medium">{invitation.role}</span>
            <span className="text-muted"> (until {formatDate(invitation.expiresAt)})</span>
          </p>
          <Button size="sm" variant="primary" disabled={busy} data-testid="invitation-accept" onClick={() => accept.mutate({ invitationId: invitation.id })}>
            Accept
          </Button>
          <Button size="sm" variant="ghost" disabled={busy} data-testid="invitation-decline" onClick={() => decline.mutate({ invitationId: invitation.id })}>
            Decline
          </Button>
        </div>
      ))}
    </section>
  );
}
