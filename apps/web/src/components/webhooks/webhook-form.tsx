'use client';

import { WEBHOOK_EVENT_TYPES } from '@looplane/webhooks/events';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save, Webhook } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import { EventCheckboxes } from './event-checkboxes';
import type { ShownSecret } from './webhook-secret';

type WebhookRow = RouterOutputs['webhooks']['list'][number];

/**
 * Create an endpoint (URL, description, events), or edit one (`webhook`). Nothing is checked
 * here that the server checks: its messages (a bad URL, a private address, no events) are shown
 * as they come, and nothing is saved when it refuses.
 */
export function WebhookForm(props: { teamId: string; webhook?: WebhookRow; onCreated: (shown: ShownSecret) => void; onDone: () => void }) {
  const { teamId, webhook } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const pending = create.isPending || update.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fields = {
      url: String(form.get('url') ?? '').trim(),
      description: String(form.get('description') ?? '').trim(),
      // In catalog order, as the server keeps them; none checked is the server's to refuse.
      events: WEBHOOK_EVENT_TYPES.filter((type) => form.getAll('events').includes(type)),
    };
    if (webhook) {
      update.mutate({ teamId, webhookId: webhook.id, ...fields }, { onSuccess: props.onDone });
    } else {
      create.mutate(
        { teamId, ...fields },
        { onSuccess: (created) => props.onCreated({ webhookId: created.webhook.id, url: created.webhook.url, secret: created.secret, kind: 'created' }) },
      );
    }
  }

  const idPrefix = webhook ? `webhook-edit-${webhook.id}` : 'webhook-create';
  return (
    // noValidate: the server's messages say what is wrong, the same as for any API client.
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 p-4" data-testid="webhook-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="URL" htmlFor={`${idPrefix}-url`} hint="Receives a signed POST per event. Public addresses only, unless the server allows private ones.">
          <Input
            id={`${idPrefix}-url`}
            name="url"
            type="url"
            defaultValue={webhook?.url}
            placeholder="https://hooks.example.com/looplane"
            autoComplete="off"
            data-testid="webhook-url"
          />
        </Field>
        <Field label="Description" htmlFor={`${idPrefix}-description`} hint="For the team: what listens there.">
          <Input
            id={`${idPrefix}-description`}
            name="description"
            defaultValue={webhook?.description}
            maxLength={500}
            placeholder="e.g. #ops chat bot"
            data-testid="webhook-description"
          />
        </Field>
      </div>
      <EventCheckboxes idPrefix={idPrefix} selected={webhook?.events ?? []} />
      <InlineError error={create.error ?? update.error} testId="webhook-form-error" />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={pending} data-testid="webhook-save">
          {webhook ? <Save className="size-3.5" aria-hidden /> : <Webhook className="size-3.5" aria-hidden />}
          {webhook ? (pending ? 'Saving…' : 'Save changes') : pending ? 'Creating…' : 'Create webhook'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={props.onDone} data-testid="webhook-cancel">
          Cancel
        </Button>
      </div>
    </form>
  );
}
