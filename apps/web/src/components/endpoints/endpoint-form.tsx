'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';

type Endpoint = RouterOutputs['endpoints']['list'][number];

/** Dollars per million tokens as typed by a person → micro-dollars per million tokens. */
function toMicros(value: FormDataEntryValue | null): number {
  const dollars = Number(String(value ?? '0').trim() || '0');
  return Math.round(dollars * 1_000_000);
}

/**
 * Create an endpoint, or edit one (`endpoint` given). The key field is write-only: editing shows
 * its last 4 characters, and leaving it empty keeps the stored key unless the base URL changes
 * (the server drops a key whose URL changed, so it never goes somewhere it was not entered for).
 */
export function EndpointForm({ teamId, endpoint, onDone }: { teamId: string; endpoint?: Endpoint; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'openai' | 'faux'>(endpoint?.kind ?? 'openai');
  const refresh = () => queryClient.invalidateQueries(trpc.endpoints.list.queryFilter({ teamId }));
  const create = useMutation(
    trpc.endpoints.create.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDone();
      },
    }),
  );
  const update = useMutation(
    trpc.endpoints.update.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDone();
      },
    }),
  );
  const pending = create.isPending || update.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (key: string) => String(form.get(key) ?? '').trim();
    const apiKey = text('apiKey');
    const baseUrl = text('baseUrl');
    const common = {
      name: text('name'),
      model: text('model'),
      inputMicrosPerMTok: toMicros(form.get('inputPrice')),
      outputMicrosPerMTok: toMicros(form.get('outputPrice')),
      contextWindow: Number(text('contextWindow')),
      maxOutputTokens: Number(text('maxOutputTokens')),
    };
    const remote = kind === 'openai' ? { ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) } : {};
    if (endpoint) update.mutate({ teamId, endpointId: endpoint.id, ...common, ...remote });
    else create.mutate({ teamId, kind, ...common, ...remote });
  }

  const price = (micros: number | undefined) => (micros === undefined ? '' : String(micros / 1_000_000));
  const prefix = endpoint ? `endpoint-edit-${endpoint.id}` : 'endpoint-create';
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid={`${endpoint ? 'endpoint-edit' : 'endpoint-create'}-form`}>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Name" htmlFor={`${prefix}-name`}>
          <Input
            id={`${prefix}-name`}
            name="name"
            required
            maxLength={100}
            defaultValue={endpoint?.name}
            placeholder="e.g. gpt-4o-mini"
            data-testid="endpoint-name"
          />
        </Field>
        <Field label="Kind" htmlFor={`${prefix}-kind`}>
          <Select
            id={`${prefix}-kind`}
            value={kind}
            disabled={Boolean(endpoint)}
            onChange={(e) => setKind(e.target.value as 'openai' | 'faux')}
            data-testid="endpoint-kind"
          >
            <option value="openai">OpenAI-compatible</option>
            <option value="faux">Faux (offline, scripted)</option>
          </Select>
        </Field>
        <Field label="Model" htmlFor={`${prefix}-model`}>
          <Input
            id={`${prefix}-model`}
            name="model"
            required
            maxLength={200}
            defaultValue={endpoint?.model ?? (kind === 'faux' ? 'faux-1' : '')}
            data-testid="endpoint-model"
          />
        </Field>
        {kind === 'openai' ? (
          <>
            <Field label="Base URL" htmlFor={`${prefix}-url`} className="sm:col-span-2">
              <Input
                id={`${prefix}-url`}
                name="baseUrl"
                type="url"
                required={!endpoint}
                defaultValue={endpoint?.baseUrl ?? ''}
                placeholder="https://api.openai.com/v1"
                data-testid="endpoint-url"
              />
            </Field>
            <Field
              label="API key"
              htmlFor={`${prefix}-key`}
              hint={
                endpoint?.keyLast4
                  ? `Stored key ends in …${endpoint.keyLast4}; leave empty to keep it (a new base URL drops it: enter it again).`
                  : 'Stored encrypted; never shown again.'
              }
            >
              <Input id={`${prefix}-key`} name="apiKey" type="password" autoComplete="off" required={!endpoint} data-testid="endpoint-key" />
            </Field>
          </>
        ) : null}
        <Field label="Input $ / MTok" htmlFor={`${prefix}-in`}>
          <Input id={`${prefix}-in`} name="inputPrice" type="number" min={0} step="any" defaultValue={price(endpoint?.inputMicrosPerMTok) || '0'} />
        </Field>
        <Field label="Output $ / MTok" htmlFor={`${prefix}-out`}>
          <Input id={`${prefix}-out`} name="outputPrice" type="number" min={0} step="any" defaultValue={price(endpoint?.outputMicrosPerMTok) || '0'} />
        </Field>
        <Field label="Context window (tokens)" htmlFor={`${prefix}-ctx`}>
          <Input id={`${prefix}-ctx`} name="contextWindow" type="number" min={1024} defaultValue={endpoint?.contextWindow ?? 128000} />
        </Field>
        <Field label="Max output tokens" htmlFor={`${prefix}-max`}>
          <Input id={`${prefix}-max`} name="maxOutputTokens" type="number" min={1} defaultValue={endpoint?.maxOutputTokens ?? 4096} />
        </Field>
      </div>
      <InlineError error={create.error ?? update.error} testId="endpoint-form-error" />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={pending} data-testid="endpoint-submit">
          {endpoint ? 'Save changes' : 'Create endpoint'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
