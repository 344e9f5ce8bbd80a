'use client';

import type { Role } from '@looplane/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { RoleSelect } from '@/components/ui/role-select';
import { formatDate } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

/** The invitation just made: whom, and the link (shown this once). */
interface Invited {
  email: string;
  role: Role;
  link: string;
  expiresAt: Date;
}

/**
 * Admin form: invite an email to the team with a role. The invitee joins only by accepting; the
 * answer is the same whether or not they have an account, and the link (shown once) lets a person
 * without one sign up.
 */
export function InviteMemberForm({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [invited, setInvited] = useState<Invited | null>(null);
  const [copied, setCopied] = useState(false);
  const invite = useMutation(
    trpc.teams.invite.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.teams.invitations.queryFilter({ teamId })),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const email = String(form.get('email') ?? '').trim();
    const role = String(form.get('role')) as Role;
    setInvited(null);
    invite.mutate(
      { teamId, email, role },
      {
        onSuccess: (result) => {
          setInvited({
            email: result.invitation.email,
            role: result.invitation.role,
            link: `${window.location.origin}${result.path}`,
            expiresAt: result.invitation.expiresAt,
          });
          formElement.reset();
        },
      },
    );
  }

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard blocked (insecure origin): the link is selectable.
    }
  }

  return (
    <Card>
      <CardHeader
        title="Invite a member"
        description="They join once they accept: signed in, from the invitation banner, or with the link below if they have no account yet."
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="member-invite-form">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end">
          <Field label="Email" htmlFor="member-invite-email">
            <Input id="member-invite-email" name="email" type="email" required placeholder="name@company.com" data-testid="member-invite-email" />
          </Field>
          <Field label="Role" htmlFor="member-invite-role">
            <RoleSelect id="member-invite-role" name="role" defaultValue="viewer" data-testid="member-invite-role" />
          </Field>
          <Button type="submit" variant="primary" disabled={invite.isPending} data-testid="member-invite-submit">
            <Send aria-hidden className="size-3.5" />
            {invite.isPending ? 'Inviting…' : 'Invite'}
          </Button>
        </div>
        <InlineError error={invite.error} testId="member-invite-error" />
        {invited ? (
          <div aria-live="polite" className="rounded-md border border-success/30 bg-success-soft p-3" data-testid="member-invite-notice">
            <p className="text-[13px]">
              Invited <span className="font-medium">{invited.email}</span> as {invited.role}, until {formatDate(invited.expiresAt)}. Send them this link; it is
              shown only now:
            </p>
            <div className="mt-2 flex items-center gap-2 rounded-md border border-border bg-surface p-1.5 pl-3">
              <code className="min-w-0 flex-1 font-mono text-[12px] break-all select-all" data-testid="member-invite-link">
                {invited.link}
              </code>
              <Button size="sm" type="button" onClick={() => void copy(invited.link)} data-testid="member-invite-copy">
                {copied ? <Check aria-hidden className="size-3.5 text-success" /> : <Copy aria-hidden className="size-3.5" />}
                {copied ? 'Copied' : 'Copy'}
              </Button>
            </div>
          </div>
        ) : null}
      </form>
    </Card>
  );
}
