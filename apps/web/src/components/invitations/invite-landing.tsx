'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { signIn, signOut } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { formatDate } from '@/lib/format';
import { useTRPC } from '@/trpc/client';
import { InvitationsBanner } from './invitations-banner';

/**
 * What an invitation link shows: the team, role and address it is for; a sign-up form for a
 * person without an account (the account is made for the invited address, and they join); for a
 * signed-in person, their invitations to accept (or a note that the link is for someone else).
 */
export function InviteLanding({ code, signedInAs }: { code: string; signedInAs: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const preview = useQuery({ ...trpc.invitations.preview.queryOptions({ code }), retry: false });
  const signUp = useMutation(trpc.invitations.signUp.mutationOptions());
  const [signInError, setSignInError] = useState<string | null>(null);

  if (preview.isPending) return <p className="text-center text-muted">Loading the invitation…</p>;
  if (preview.error) return <InlineError error={preview.error} testId="invite-error" />;
  const invitation = preview.data;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const name = String(form.get('name') ?? '').trim();
    setSignInError(null);
    signUp.mutate(
      { code, password, ...(name ? { name } : {}) },
      {
        onSuccess: async (joined) => {
          const result = await signIn('credentials', { email: joined.email, password, redirect: false });
          if (!result?.ok) return setSignInError('Your account was created, but signing in failed: sign in with your new password.');
          router.replace(`/t/${joined.slug}`);
          router.refresh();
        },
      },
    );
  }

  return (
    <div className="rounded-lg border border-border bg-surface p-5 shadow-sm" data-testid="invite-landing">
      <h1 className="text-lg font-semibold tracking-tight">Join {invitation.team.name}</h1>
      <p className="mt-1 text-[13px] text-muted" data-testid="invite-summary">
        <span className="font-medium text-foreground">{invitation.email}</span> is invited as{' '}
        <span className="font-medium text-foreground">{invitation.role}</span>, until {formatDate(invitation.expiresAt)}.
      </p>
      {signedInAs === invitation.email ? (
        <div className="mt-4 -mx-5 -mb-5 overflow-hidden rounded-b-lg">
          <InvitationsBanner />
        </div>
      ) : signedInAs ? (
        <div className="mt-4 flex flex-col gap-3 text-[13px]" data-testid="invite-other-account">
          <p>
            You are signed in as <span className="font-medium">{signedInAs}</span>. Sign out to use this invitation for {invitation.email}.
          </p>
          <Button onClick={() => void signOut({ callbackUrl: `/invite/${code}` })}>Sign out</Button>
        </div>
      ) : (
        // method="post": a form sent before the page's script runs must never put the password in the URL.
        <form method="post" onSubmit={onSubmit} className="mt-4 flex flex-col gap-3.5" data-testid="invite-signup-form">
          <Field label="Your name (optional)" htmlFor="invite-name">
            <Input id="invite-name" name="name" autoComplete="name" maxLength={100} data-testid="invite-name" />
          </Field>
          <Field label="Choose a password" htmlFor="invite-password">
            <Input id="invite-password" name="password" type="password" autoComplete="new-password" required minLength={8} data-testid="invite-password" />
          </Field>
          <InlineError error={signUp.error ?? (signInError ? new Error(signInError) : null)} testId="invite-signup-error" />
          <Button type="submit" variant="primary" className="w-full justify-center" disabled={signUp.isPending} data-testid="invite-signup-submit">
            {signUp.isPending ? 'Creating your account…' : 'Create account and join'}
          </Button>
          <p className="text-center text-[13px] text-muted">
            Already have an account for {invitation.email}?{' '}
            <Link
              className="text-accent underline underline-offset-2"
              href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${code}`)}`}
              data-testid="invite-signin"
            >
              Sign in
            </Link>{' '}
            and accept it there.
          </p>
        </form>
      )}
    </div>
  );
}
