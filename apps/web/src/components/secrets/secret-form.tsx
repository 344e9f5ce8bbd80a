'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * Add a secret, or give an existing one a new value (`replace`). The value goes to the server
 * once, is sealed there and never comes back; the field is cleared when it is stored.
 */
export function SecretForm({ teamId, name, onDone }: { teamId: string; name?: string; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.secrets.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.secrets.list.queryFilter({ teamId })) }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    create.mutate(
      { teamId, name: name ?? String(form.get('name') ?? '').trim(), value: String(form.get('value') ?? ''), replace: name !== undefined },
      {
        onSuccess: () => {
          formElement.reset();
          onDone();
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader
        title={name ? `New value for ${name}` : 'Add a secret'}
        description="The egress proxy adds it as a header for the hosts whose policy credential names it (secretRef). The sandbox never sees it."
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="secret-form">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] sm:items-end">
          <Field label="Name (secretRef)" htmlFor="secret-name">
            <Input
              id="secret-name"
              name="name"
              required={!name}
              disabled={name !== undefined}
              defaultValue={name}
              maxLength={100}
              placeholder="e.g. GITHUB_TOKEN"
              autoComplete="off"
              data-testid="secret-name"
            />
          </Field>
          <Field label="Value" htmlFor="secret-value" hint="Stored encrypted; only its last 4 characters are shown again.">
            <Input
              id="secret-value"
              name="value"
              type="password"
              required
              minLength={4}
              maxLength={8192}
              autoComplete="new-password"
              placeholder="e.g. Bearer ghp_…"
              data-testid="secret-value"
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" variant="primary" size="sm" disabled={create.isPending} data-testid="secret-save">
              <KeyRound className="size-3.5" aria-hidden />
              {name ? 'Replace' : 'Add'}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={onDone} data-testid="secret-cancel">
              Cancel
            </Button>
          </div>
        </div>
        <InlineError error={create.error} testId="secret-form-error" />
      </form>
    </Card>
  );
}
