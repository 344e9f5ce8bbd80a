'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import { FORGE_LABELS, type Forge, KIND_LABELS, type SecretKind } from './secret-kinds';

type Secret = RouterOutputs['secrets']['list']['secrets'][number];

const KIND_HELP: Record<SecretKind, string> = {
  header: 'The egress proxy adds it as a header for the hosts whose policy credential names it (secretRef). The sandbox never sees it.',
  token: 'A forge token: the worker clones and pushes https remotes with it (as the password) and opens pull requests with it. The sandbox never sees it.',
  ssh_key: 'A private key without a passphrase: the worker clones and pushes ssh remotes with it. The sandbox never sees it.',
};

/** What the form sends for the chosen kind: only a token takes a user name, a forge and an API URL. */
function inputOf(form: FormData, kind: SecretKind) {
  const text = (field: string) => String(form.get(field) ?? '').trim();
  const value = String(form.get('value') ?? '');
  if (kind !== 'token') return { kind, value };
  const forge = Object.keys(FORGE_LABELS).find((known): known is Forge => known === text('forge'));
  return {
    kind,
    value,
    ...(text('username') ? { username: text('username') } : {}),
    ...(forge ? { forge } : {}),
    ...(forge && text('apiUrl') ? { apiUrl: text('apiUrl') } : {}),
  };
}

/**
 * Add a secret, or give an existing one a new value (`replace`, which may change its kind). The
 * value goes to the server once, is sealed there and never comes back; the form is cleared when
 * it is stored.
 */
export function SecretForm({ teamId, secret, onDone }: { teamId: string; secret?: Secret; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<SecretKind>(secret?.kind ?? 'header');
  const [forge, setForge] = useState<string>(secret?.forge ?? '');
  const create = useMutation(
    trpc.secrets.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.secrets.list.queryFilter({ teamId })) }),
  );
  const name = secret?.name;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    create.mutate(
      { teamId, name: name ?? String(form.get('name') ?? '').trim(), ...inputOf(form, kind), replace: name !== undefined },
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
      <CardHeader title={name ? `New value for ${name}` : 'Add a secret'} description={KIND_HELP[kind]} />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="secret-form">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
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
          <Field label="Kind" htmlFor="secret-kind">
            <Select id="secret-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as SecretKind)} data-testid="secret-kind">
              {Object.entries(KIND_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        {kind === 'ssh_key' ? (
          <Field label="Private key" htmlFor="secret-value" hint="OpenSSH or PEM, without a passphrase. Stored encrypted; never shown again.">
            <Textarea
              key="ssh_key"
              id="secret-value"
              name="value"
              required
              rows={8}
              maxLength={16384}
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-xs"
              placeholder={'-----BEGIN OPENSSH PRIVATE KEY-----\n…\n-----END OPENSSH PRIVATE KEY-----'}
              data-testid="secret-value"
            />
          </Field>
        ) : (
          <Field label="Value" htmlFor="secret-value" hint="Stored encrypted; only its last 4 characters are shown again.">
            <Input
              key="line"
              id="secret-value"
              name="value"
              type="password"
              required
              minLength={4}
              maxLength={8192}
              autoComplete="new-password"
              placeholder={kind === 'token' ? 'e.g. ghp_… or glpat-…' : 'e.g. Bearer ghp_…'}
              data-testid="secret-value"
            />
          </Field>
        )}
        {kind === 'token' ? (
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="User name (optional)" htmlFor="secret-username" hint="The https user the token goes with; default x-access-token.">
              <Input
                id="secret-username"
                name="username"
                maxLength={100}
                defaultValue={secret?.username ?? ''}
                placeholder="x-access-token"
                autoComplete="off"
                data-testid="secret-username"
              />
            </Field>
            <Field label="Forge (optional)" htmlFor="secret-forge" hint="Where the token opens pull requests.">
              <Select id="secret-forge" name="forge" value={forge} onChange={(e) => setForge(e.target.value)} data-testid="secret-forge">
                <option value="">none</option>
                {Object.entries(FORGE_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="API URL (optional)" htmlFor="secret-api-url" hint="Default: derived from the repository's host.">
              <Input
                id="secret-api-url"
                name="apiUrl"
                type="url"
                maxLength={2000}
                disabled={!forge}
                defaultValue={secret?.apiUrl ?? ''}
                placeholder="https://git.example.org/api/v1"
                autoComplete="off"
                data-testid="secret-api-url"
              />
            </Field>
          </div>
        ) : null}
        <div className="flex gap-2">
          <Button type="submit" variant="primary" size="sm" disabled={create.isPending} data-testid="secret-save">
            <KeyRound className="size-3.5" aria-hidden />
            {name ? 'Replace' : 'Add'}
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={onDone} data-testid="secret-cancel">
            Cancel
          </Button>
        </div>
        <InlineError error={create.error} testId="secret-form-error" />
      </form>
    </Card>
  );
}
