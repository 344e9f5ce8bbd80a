'use client';

import type { Role } from '@looplane/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { RoleSelect } from '@/components/ui/role-select';
import { useTRPC } from '@/trpc/client';

/** Admin form: add a member by email; a new user needs an initial password. */
export function AddMemberForm({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const add = useMutation(
    trpc.teams.addMember.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.teams.members.queryFilter({ teamId })),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setNotice(null);
    add.mutate(
      { teamId, email, role: String(form.get('role')) as Role, ...(password ? { password } : {}) },
      {
        onSuccess: (result) => {
          setNotice(result.created ? `Created ${email} and added them to the team.` : `Added ${email} to the team.`);
          formElement.reset();
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader
        title="Add a member"
        description="Existing users are added as they are. For a new email, set an initial password and share it with them."
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="member-add-form">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1.5fr)_auto] sm:items-end">
          <Field label="Email" htmlFor="member-add-email">
            <Input
              id="member-add-email"
              name="email"
              type="email"
              required
              placeholder="name@company.com"
              data-testid="member-add-email"
            />
          </Field>
          <Field label="Role" htmlFor="member-add-role">
            <RoleSelect id="member-add-role" name="role" defaultValue="viewer" data-testid="member-add-role" />
          </Field>
          <Field label="Initial password (new users)" htmlFor="member-add-password">
            <Input
              id="member-add-password"
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              placeholder="at least 8 characters"
              data-testid="member-add-password"
            />
          </Field>
          <Button type="submit" variant="primary" disabled={add.isPending} data-testid="member-add-submit">
            <UserPlus aria-hidden className="size-3.5" />
            {add.isPending ? 'Adding…' : 'Add member'}
          </Button>
        </div>
        <InlineError error={add.error} testId="member-add-error" />
        {notice ? (
          <p aria-live="polite" className="text-[13px] text-success" data-testid="member-add-notice">
            {notice}
          </p>
        ) : null}
      </form>
    </Card>
  );
}
