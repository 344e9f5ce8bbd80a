'use client';

import { useMutation } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { signOut } from 'next-auth/react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * Change your own password. The server ends every session of yours on success (this one too),
 * so the page then signs out and asks for the new password.
 */
export function ChangePasswordForm() {
  const trpc = useTRPC();
  const change = useMutation(trpc.account.changePassword.mutationOptions({ onSuccess: () => void signOut({ callbackUrl: '/signin' }) }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    change.mutate({ currentPassword: String(form.get('currentPassword') ?? ''), newPassword: String(form.get('newPassword') ?? '') });
  }

  return (
    <Card>
      <CardHeader title="Password" description="Changing it signs you out everywhere: every browser signed in as you has to sign in again." />
      <form onSubmit={onSubmit} className="flex max-w-md flex-col gap-3 p-4" data-testid="change-password-form">
        <Field label="Current password" htmlFor="current-password">
          <Input id="current-password" name="currentPassword" type="password" required autoComplete="current-password" data-testid="current-password" />
        </Field>
        <Field label="New password" htmlFor="new-password" hint="8 or more characters, not one of the most common passwords.">
          <Input
            id="new-password"
            name="newPassword"
            type="password"
            required
            minLength={8}
            maxLength={200}
            autoComplete="new-password"
            data-testid="new-password"
          />
        </Field>
        <InlineError error={change.error} testId="change-password-error" />
        <div>
          <Button type="submit" variant="primary" size="sm" disabled={change.isPending || change.isSuccess} data-testid="change-password-submit">
            <KeyRound className="size-3.5" aria-hidden />
            Change password
          </Button>
        </div>
      </form>
    </Card>
  );
}
