'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { slashCommandsSchema, toolSpecSchema } from '@looplane/engine';
import { useMemo, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { AgentView } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import { AgentSkillsField, skillsChanged } from './agent-skills-field';
import { AgentWorkspaceField, repositoryDraftOf, workspaceToSave } from './agent-workspace-field';
import { type FieldRejection, JsonField, useJsonField } from './json-field';

const TOOLS_EXAMPLE = '[{ "name": "read_file", "description": "Read a workspace file", "idempotent": true }]';
const COMMANDS_EXAMPLE =
  '[{ "name": "triage", "description": "Triage a report", "goalTemplate": "Triage: {{report}}", "args": [{ "name": "report", "required": true }] }]';

function parseJson(label: string, text: string): unknown {
  try {
    return JSON.parse(text.trim() === '' ? 'null' : text) ?? undefined;
  } catch (error) {
    throw new Error(`${label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

// The engine's schemas, which the server applies too; the sandbox settings are checked by the
// server only (their schema lives with the API), and its answer is shown at the line.
const toolsSchema = z.array(toolSpecSchema);

/** The JSON fields, by the name the API gives their input. */
const JSON_FIELDS = ['tools', 'slashCommands', 'sandbox'] as const;
type JsonFieldName = (typeof JSON_FIELDS)[number];

/**
 * Create or edit an agent template. Tools, slash commands and sandbox are JSON editors: syntax
 * and the engine's schemas are checked as you type, the API's answer on save is shown at the
 * line it is about, and a syntax error blocks saving. Editing bumps the version; runs that exist
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
  const [repository, setRepository] = useState(() => repositoryDraftOf(agent?.workspace));
  const [skills, setSkills] = useState<string[]>(() => agent?.skills ?? []);
  const onSuccess = async () => {
    await queryClient.invalidateQueries(trpc.agents.pathFilter());
  };
  const create = useMutation(
    trpc.agents.create.mutationOptions({
      onSuccess: async () => {
        await onSuccess();
        router.push(`/t/${team.slug}/agents`);
      },
    }),
  );
  const update = useMutation(
    trpc.agents.update.mutationOptions({
      onSuccess: async () => {
        await onSuccess();
        setSaved(true);
      },
    }),
  );
  const pending = create.isPending || update.isPending;
  // What the last save sent, so the server's issues are shown while the text is still that text.
  const [sent, setSent] = useState<Record<JsonFieldName, string> | null>(null);
  const serverIssues = (create.error ?? update.error)?.data?.issues;
  const rejections = useMemo(() => {
    const byField: Record<JsonFieldName, FieldRejection | null> = { tools: null, slashCommands: null, sandbox: null };
    if (!sent || !serverIssues) return byField;
    for (const name of JSON_FIELDS) {
      const issues = serverIssues.filter((issue) => issue.path[0] === name).map((issue) => ({ path: issue.path.slice(1), message: issue.message }));
      if (issues.length > 0) byField[name] = { text: sent[name], issues };
    }
    return byField;
  }, [sent, serverIssues]);
  const tools = useJsonField(agent ? pretty(agent.tools) : '[]', toolsSchema, rejections.tools);
  const commands = useJsonField(agent ? pretty(agent.slashCommands) : '[]', slashCommandsSchema, rejections.slashCommands);
  const sandbox = useJsonField(agent ? pretty(agent.sandbox) : '{}', null, rejections.sandbox);
  const blocked = tools.blocked || commands.blocked || sandbox.blocked;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLocalError(null);
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    setSent({ tools: text('tools'), slashCommands: text('slashCommands'), sandbox: text('sandbox') });
    let fields: Omit<Parameters<typeof create.mutate>[0], 'teamId'>;
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
        persistent: form.get('persistent') === 'on',
      };
      if (skillsChanged(skills, agent?.skills)) fields.skills = skills;
      const workspace = workspaceToSave(repository, agent?.workspace);
      if (workspace !== undefined) fields.workspace = workspace;
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
        description={
          agent
            ? `Version ${agent.version}. Saving makes version ${agent.version + 1}; running runs keep their snapshot.`
            : 'An agent template: which model, what it is told, which tools it may load.'
        }
      />
      <form className="flex flex-col gap-4 p-4" onSubmit={onSubmit} data-testid="agent-form">
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Name" htmlFor="agent-name" hint="lowercase, digits and dashes; used by `looplane run --agent`">
            <Input
              id="agent-name"
              name="name"
              required
              maxLength={64}
              defaultValue={agent?.name}
              pattern="[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?"
              data-testid="agent-name"
            />
          </Field>
          <Field label="Model endpoint" htmlFor="agent-endpoint">
            <Select
              id="agent-endpoint"
              name="endpointId"
              required
              defaultValue={agent?.endpoint.id}
              key={endpoints.data?.length ?? 0}
              data-testid="agent-endpoint"
            >
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
          <JsonField id="agent-tools" label="Tools (JSON)" name="tools" testId="agent-tools" field={tools} minHeight="7.5rem" hint={`e.g. ${TOOLS_EXAMPLE}`} />
          <JsonField
            id="agent-commands"
            label="Slash commands (JSON)"
            name="slashCommands"
            testId="agent-commands"
            field={commands}
            minHeight="7.5rem"
            hint={`e.g. ${COMMANDS_EXAMPLE}`}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          <JsonField
            id="agent-sandbox"
            label="Sandbox (JSON)"
            name="sandbox"
            testId="agent-sandbox"
            field={sandbox}
            minHeight="4rem"
            hint='e.g. { "driver": "bwrap", "memoryMb": 512 }'
          />
          <Field label="Messages while busy" htmlFor="agent-busy" hint="What a message to a working run does">
            <Select id="agent-busy" name="busyPolicy" defaultValue={agent?.busyPolicy ?? 'enqueue'} data-testid="agent-busy">
              <option value="enqueue">Queue for the next step</option>
              <option value="interrupt">Interrupt the current step</option>
              <option value="reject">Reject</option>
            </Select>
          </Field>
          <Field label="Max concurrent runs" htmlFor="agent-concurrency" hint="Empty: only the team limit applies">
            <Input
              id="agent-concurrency"
              name="maxConcurrentRuns"
              type="number"
              min={1}
              max={1000}
              defaultValue={agent?.maxConcurrentRuns ?? ''}
              data-testid="agent-concurrency"
            />
          </Field>
        </div>
        <AgentWorkspaceField value={repository} onChange={setRepository} stored={agent?.workspace} />
        <AgentSkillsField selected={skills} onChange={setSkills} />
        <label className="flex items-start gap-2 text-[13px]">
          <input type="checkbox" name="persistent" className="mt-1" defaultChecked={agent?.persistent ?? false} data-testid="agent-persistent" />
          <span>
            Persistent
            <span className="block text-xs text-muted">
              Waits for the next message after answering instead of finishing: one run, its history and files serve every message (waiting costs nothing).
            </span>
          </span>
        </label>
        <InlineError error={localError ?? create.error ?? update.error} testId="agent-form-error" />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={pending || blocked} data-testid="agent-save">
            <Save aria-hidden className="size-3.5" /> {pending ? 'Saving…' : agent ? 'Save changes' : 'Create agent'}
          </Button>
          {blocked ? (
            <span className="text-xs text-danger" data-testid="agent-save-blocked">
              Fix the JSON syntax errors to save.
            </span>
          ) : null}
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
