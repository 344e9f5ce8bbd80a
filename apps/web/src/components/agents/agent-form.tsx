'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { AgentView } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';

const TOOLS_EXAMPLE = '[{ "name": "read_file", "description": "Read a workspace file", "idempotent": true }]';
const COMMANDS_EXAMPLE = '[{ "name": "triage", "description": "Triage a report", "goalTemplate": "Triage: {{report}}", "args": [{ "name": "report", "required": true }] }]';

function parseJson(label: string, text: string): unknown {
  try {
    return JSON.parse(text.trim() === '' ? 'null' : text) ?? undefined;
  } catch (error) {
    throw new Error(`${label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * Create or edit an agent template. Tools, slash commands and sandbox are JSON (validated by the
 * API with the engine's schemas, errors shown inline). Editing bumps the version; runs that exist
 * keep the config they started with.
 */
export function AgentForm({ agent }: { agent?: AgentView }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const endpoints = useQuery(trpc.agents.endpointOptions.queryOptions({ teamId: team.id }));
  const [localError, setLocalError] = useState<Error | null>(null);
  const [saved, setSaved] = useState(false);
  const onSuccess = async () => {
    await queryClient.invalidateQueries(trpc.agents.pathFilter());
  };
  const create = useMutation(trpc.agents.create.mutationOptions({ onSuccess: async () => {
    await onSuccess();
    router.push(`/t/${team.slug}/agents`);
  } }));
  const update = useMutation(trpc.agents.update.mutationOptions({ onSuccess: async () => {
    await onSuccess();
    setSaved(true);
  } }));
  const pending = create.isPending || update.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLocalError(null);
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    let fields;
    try {
      fields = {
        name: text('name').trim(),
        description: text('description').trim(),
        endpointId: text('endpointId'),
        systemPrompt: text('systemPrompt'),
        tools: (parseJson('Tools', text('tools')) ?? []) as never,
        slashCommands: (parseJson('Slash commands', text('slashCommands')) ?? []) as never,
        sandbox: (parseJson('Sandbox', text('sandbox')) ?? {}) as never,
        busyPolicy: text('busyPolicy') as 'reject' | 'enqueue' | 'interrupt',
        maxConcurrentRuns: text('maxConcurrentRuns').trim() === '' ? null : Number(text('maxConcurrentRuns')),
      };
    } catch (error) {
      setLocalError(error as Error);
      return;
    }
    if (agent) update.mutate({ teamId: team.id, agentId: agent.id, expectedVersion: agent.version, ...fields });
    else create.mutate({ teamId: team.id, ...fields });
  }

  return (
    <Card>
      <CardHeader
        title={agent ? `Edit ${agent.name}` : 'New agent'}
        description={agent ? `Version ${agent.version}. Saving makes version ${agent.version + 1}; running runs keep their snapshot.` : 'An agent template: which model, what it is told, which tools it may load.'}
      />
      <form className="flex flex-col gap-4 p-4" onSubmit={onSubmit} data-testid="agent-form">
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Name" htmlFor="agent-name" hint="lowercase, digits and dashes; used by `looplane run --agent`">
            <Input id="agent-name" name="name" required maxLength={64} defaultValue={agent?.name} pattern="[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?" data-testid="agent-name" />
          </Field>
          <Field label="Model endpoint" htmlFor="agent-endpoint">
            <Select id="agent-endpoint" name="endpointId" required defaultValue={agent?.endpoint.id} key={endpoints.data?.length ?? 0} data-testid="agent-endpoint">
              {endpoints.data?.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} ({e.kind} · {e.model})
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Description" htmlFor="agent-description">
            <Input id="agent-description" name="description" maxLength={500} defaultValue={agent?.description} data-testid="agent-description" />
          </Field>
        </div>
        <Field label="System prompt" htmlFor="agent-prompt">
          <Textarea id="agent-prompt" name="systemPrompt" rows={5} maxLength={50_000} defaultValue={agent?.systemPrompt} data-testid="agent-prompt" />
        </Field>
        <div className="grid gap-3 lg:grid-cols-2">
          <Field label="Tools (JSON)" htmlFor="agent-tools" hint={`e.g. ${TOOLS_EXAMPLE}`}>
            <Textarea id="agent-tools" name="tools" rows={6} className="font-mono text-xs" defaultValue={agent ? pretty(agent.tools) : '[]'} data-testid="agent-tools" />
          </Field>
          <Field label="Slash commands (JSON)" htmlFor="agent-commands" hint={`e.g. ${COMMANDS_EXAMPLE}`}>
            <Textarea id="agent-commands" name="slashCommands" rows={6} className="font-mono text-xs" defaultValue={agent ? pretty(agent.slashCommands) : '[]'} data-testid="agent-commands" />
          </Field>
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Sandbox (JSON)" htmlFor="agent-sandbox" hint='e.g. { "driver": "bwrap", "memoryMb": 512 }'>
            <Textarea id="agent-sandbox" name="sandbox" rows={3} className="font-mono text-xs" defaultValue={agent ? pretty(agent.sandbox) : '{}'} data-testid="agent-sandbox" />
          </Field>
          <Field label="Messages while busy" htmlFor="agent-busy" hint="What a message to a working run does">
            <Select id="agent-busy" name="busyPolicy" defaultValue={agent?.busyPolicy ?? 'enqueue'} data-testid="agent-busy">
              <option value="enqueue">Queue for the next step</option>
              <option value="interrupt">Interrupt the current step</option>
              <option value="reject">Reject</option>
            </Select>
          </Field>
          <Field label="Max concurrent runs" htmlFor="agent-concurrency" hint="Empty: only the team limit applies">
            <Input id="agent-concurrency" name="maxConcurrentRuns" type="number" min={1} max={1000} defaultValue={agent?.maxConcurrentRuns ?? ''} data-testid="agent-concurrency" />
          </Field>
        </div>
        <InlineError error={localError ?? create.error ?? update.error} testId="agent-form-error" />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={pending} data-testid="agent-save">
            <Save aria-hidden className="size-3.5" /> {pending ? 'Saving…' : agent ? 'Save changes' : 'Create agent'}
          </Button>
          {saved ? (
            <span className="text-xs text-success" data-testid="agent-saved">
              Saved as version {update.data?.version}.
            </span>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
