'use client';

import type { Role } from '@looplane/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input, Select } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { RoleSelect } from '@/components/ui/role-select';
import type { CreatedToken } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';

const EXPIRY_CHOICES = [
  { days: 0, label: 'Never' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
];

/** Create a token: name, role (at most `maxRole`), optional expiry. */
export function CreateTokenForm(props: { teamId: string; maxRole: Role; onCreated: (token: CreatedToken & { name: string }) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.tokens.list.queryFilter({ teamId: props.teamId })),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get('name') ?? '').trim();
    const days = Number(form.get('expiresInDays') ?? 0);
    create.mutate(
      { teamId: props.teamId, name, role: String(form.get('role')) as Role, ...(days > 0 ? { expiresInDays: days } : {}) },
      {
        onSuccess: (token) => {
          props.onCreated({ ...token, name });
          formElement.reset();
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader title="Create an API token" description={`Tokens can have any role up to yours (${props.maxRole}).`} />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="token-create-form">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
          <Field label="Name" htmlFor="token-create-name">
            <Input id="token-create-name" name="name" required maxLength={100} placeholder="e.g. ci-deploy" data-testid="token-create-name" />
          </Field>
          <Field label="Role" htmlFor="token-create-role">
            <RoleSelect id="token-create-role" name="role" max={props.maxRole} defaultValue="viewer" data-testid="token-create-role" />
          </Field>
          <Field label="Expires" htmlFor="token-create-expiry">
            <Select id="token-create-expiry" name="expiresInDays" defaultValue="90" data-testid="token-create-expiry">
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.days} value={choice.days}>
                  {choice.label}
                </option>
              ))}
            </Select>
          </Field>
          <Button type="submit" variant="primary" disabled={create.isPending} data-testid="token-create-submit">
            <KeyRound aria-hidden className="size-3.5" />
            {create.isPending ? 'Creating…' : 'Create token'}
          </Button>
        </div>
        <InlineError error={create.error} testId="token-create-error" />
      </form>
    </Card>
  );
}
