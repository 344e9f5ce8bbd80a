'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Webhook } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { TriggerAuth } from '@/lib/trigger-example';
import { useTRPC } from '@/trpc/client';
import type { ShownTriggerSecret } from './trigger-secret';

type TargetKind = 'start_run' | 'message_run';

/**
 * Create a trigger: what a delivery does (start a run of an agent or graph with a goal made from
 * the payload, or send a message to one run) and how it is authenticated. Nothing is checked here
 * that the server checks: its messages are shown as they come, and nothing is saved when it refuses.
 */
export function TriggerForm(props: { onCreated: (shown: ShownTriggerSecret) => void; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const graphs = useQuery(trpc.graphs.list.queryOptions({ teamId: team.id }));
  const [kind, setKind] = useState<TargetKind>('start_run');
  const [runs, setRuns] = useState<'agent' | 'graph'>('agent');
  const create = useMutation(trpc.triggers.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.triggers.pathFilter()) }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    const chosen = text('targetId');
    const messageTemplate = text('messageTemplate').trim();
    const target =
      kind === 'start_run'
        ? {
            type: 'start_run' as const,
            ...(runs === 'agent' ? { agentId: chosen || undefined } : { graphId: chosen || undefined }),
            goalTemplate: text('goalTemplate'),
          }
        : { type: 'message_run' as const, runId: text('runId').trim(), ...(messageTemplate ? { messageTemplate } : {}) };
    const rate = text('rateLimitPerMinute').trim();
    create.mutate(
      {
        teamId: team.id,
        name: text('name').trim(),
        target,
        auth: text('auth') as TriggerAuth,
        ...(rate ? { rateLimitPerMinute: Number(rate) } : {}),
        enabled: form.get('enabled') === 'on',
      },
      {
        onSuccess: (created) =>
          props.onCreated({
            triggerId: created.trigger.id,
            name: created.trigger.name,
            path: created.trigger.path,
            auth: created.trigger.auth,
            secret: created.secret,
            kind: 'created',
          }),
      },
    );
  }

  const options = runs === 'agent' ? (agents.data ?? []) : (graphs.data ?? []);
  return (
    // noValidate: the server's messages say what is wrong, the same as for any API client.
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 p-4" data-testid="trigger-form">
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Name" htmlFor="trigger-name" hint="Unique in the team">
          <Input id="trigger-name" name="name" maxLength={100} autoComplete="off" data-testid="trigger-name" />
        </Field>
        <Field label="Authentication" htmlFor="trigger-auth" hint="Standard Webhooks signs each body (replays refused); bearer sends the secret itself">
          <Select id="trigger-auth" name="auth" defaultValue="standard_webhooks" data-testid="trigger-auth">
            <option value="standard_webhooks">Standard Webhooks signature</option>
            <option value="bearer">Bearer secret</option>
          </Select>
        </Field>
        <Field label="Deliveries per minute" htmlFor="trigger-rate" hint="More are refused with 429">
          <Input id="trigger-rate" name="rateLimitPerMinute" type="number" min={1} max={60_000} defaultValue={600} data-testid="trigger-rate" />
        </Field>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-xs font-medium text-muted">Each delivery</legend>
        <div className="flex gap-4 text-[13px]">
          <label className="flex items-center gap-1.5">
            <input type="radio" name="kind" checked={kind === 'start_run'} onChange={() => setKind('start_run')} data-testid="trigger-kind-start" />
            Starts a run
          </label>
          <label className="flex items-center gap-1.5">
            <input type="radio" name="kind" checked={kind === 'message_run'} onChange={() => setKind('message_run')} data-testid="trigger-kind-message" />
            Sends a message to a run
          </label>
        </div>
        {kind === 'start_run' ? (
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Runs" htmlFor="trigger-runs">
              <Select id="trigger-runs" value={runs} onChange={(event) => setRuns(event.target.value as 'agent' | 'graph')} data-testid="trigger-runs">
                <option value="agent">an agent</option>
                <option value="graph">a graph</option>
              </Select>
            </Field>
            <Field label={runs === 'agent' ? 'Agent' : 'Graph'} htmlFor="trigger-target" className="sm:col-span-2">
              <Select id="trigger-target" name="targetId" key={runs} defaultValue="" data-testid="trigger-target">
                <option value="">Choose {runs === 'agent' ? 'an agent' : 'a graph'}…</option>
                {options.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field
              label="Goal template"
              htmlFor="trigger-goal"
              className="sm:col-span-3"
              hint="{{payload.a.b}} is that value of the delivery's JSON, inserted as delimited data (never as instructions); a missing path is empty."
            >
              <Textarea
                id="trigger-goal"
                name="goalTemplate"
                rows={3}
                maxLength={20_000}
                placeholder="Draft a quote for this request: {{payload.text}}"
                data-testid="trigger-goal"
              />
            </Field>
          </div>
        ) : (
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Run id" htmlFor="trigger-run" hint="A run of the team; a finished one continues with the message">
              <Input id="trigger-run" name="runId" autoComplete="off" className="font-mono" data-testid="trigger-run" />
            </Field>
            <Field
              label="Message template (optional)"
              htmlFor="trigger-message"
              className="sm:col-span-2"
              hint="Without one, the trigger's name and the whole payload, as delimited data"
            >
              <Textarea id="trigger-message" name="messageTemplate" rows={2} maxLength={20_000} data-testid="trigger-message" />
            </Field>
          </div>
        )}
      </fieldset>
      <label className="flex items-center gap-2 text-[13px]">
        <input type="checkbox" name="enabled" defaultChecked data-testid="trigger-enabled" />
        Enabled: take deliveries from now on
      </label>
      <InlineError error={create.error} testId="trigger-form-error" />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={create.isPending} data-testid="trigger-save">
          <Webhook className="size-3.5" aria-hidden />
          {create.isPending ? 'Creating…' : 'Create trigger'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={props.onDone} data-testid="trigger-cancel">
          Cancel
        </Button>
      </div>
    </form>
  );
}
