'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { WorkspacePicker } from '@/components/workspace/workspace-picker';
import { EMPTY_WORKSPACE, workspaceSource, type WorkspaceDraft } from '@/lib/workspace-draft';
import { useTRPC } from '@/trpc/client';
import { hintsFor, SlashHints } from './slash-hints';

function positive(value: FormDataEntryValue | null): number | undefined {
  const n = Number(String(value ?? '').trim());
  return String(value ?? '').trim() !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Start a run: pick an agent, write a goal (or a slash command), optionally give it files and cap its budget. */
export function RunComposer({ initialAgentId }: { initialAgentId: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { team } = useTeamScope();
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const [chosen, setChosen] = useState<string | null>(initialAgentId);
  const [goal, setGoal] = useState('');
  const [files, setFiles] = useState<WorkspaceDraft>(EMPTY_WORKSPACE);
  // What the page itself refuses before asking the server (a missing URL, an upload not finished).
  const [filesError, setFilesError] = useState<Error | null>(null);
  const agent = agents.data?.find((a) => a.id === chosen) ?? agents.data?.[0];
  const create = useMutation(trpc.runs.create.mutationOptions({ onSuccess: ({ runId }) => router.push(`/t/${team.slug}/runs/${runId}`) }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!agent) return;
    let workspace: ReturnType<typeof workspaceSource>;
    try {
      workspace = workspaceSource(files);
      setFilesError(null);
    } catch (error) {
      setFilesError(error as Error);
      return;
    }
    const form = new FormData(event.currentTarget);
    const tokens = positive(form.get('tokens'));
    const costUsd = positive(form.get('costUsd'));
    const toolCalls = positive(form.get('toolCalls'));
    const wallMinutes = positive(form.get('wallMinutes'));
    const capped = tokens || costUsd || toolCalls || wallMinutes;
    create.mutate({
      teamId: team.id,
      agentId: agent.id,
      goal,
      ...(workspace ? { workspace } : {}),
      ...(capped
        ? {
            budget: {
              ...(tokens ? { tokens: Math.round(tokens) } : {}),
              ...(costUsd ? { costMicros: Math.round(costUsd * 1_000_000) } : {}),
              ...(toolCalls ? { toolCalls: Math.round(toolCalls) } : {}),
              ...(wallMinutes ? { wallMs: Math.round(wallMinutes * 60_000) } : {}),
              onExceed: form.get('onExceed') === 'fail' ? ('fail' as const) : ('wait' as const),
            },
          }
        : {}),
    });
  }

  // Tab completes the first matching slash command.
  function onGoalKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    const first = hintsFor(goal, agent?.slashCommands ?? []).complete[0];
    if (event.key === 'Tab' && first) {
      event.preventDefault();
      setGoal(`/${first.name} `);
    }
  }

  if (agents.data && agents.data.length === 0) {
    return (
      <Card className="p-6">
        <p data-testid="composer-no-agents">
          This team has no agents yet.{' '}
          <Link className="text-accent underline" href={`/t/${team.slug}/agents/new`}>
            Create an agent
          </Link>{' '}
          first.
        </p>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader title="New run" description="The agent’s template (endpoint, prompt, tools, sandbox) is snapshotted when the run starts." />
      <form className="flex flex-col gap-4 p-4" onSubmit={onSubmit} data-testid="composer-form">
        <Field
          label="Agent"
          htmlFor="composer-agent"
          hint={agent ? `${agent.endpoint.name} · ${agent.endpoint.model} · ${agent.tools.length} tools` : undefined}
        >
          <Select id="composer-agent" value={agent?.id ?? ''} onChange={(e) => setChosen(e.target.value)} disabled={!agents.data} data-testid="composer-agent">
            {agents.data?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
                {a.description ? ` — ${a.description}` : ''}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex flex-col gap-1.5">
          <Field label="Goal" htmlFor="composer-goal">
            <Textarea
              id="composer-goal"
              required
              rows={4}
              maxLength={20_000}
              value={goal}
              onChange={(e) => setGoal(e.target.value)}
              onKeyDown={onGoalKey}
              placeholder="What should the agent do? Start with / for a command."
              data-testid="composer-goal"
            />
          </Field>
          <SlashHints goal={goal} commands={agent?.slashCommands ?? []} onPick={(command) => setGoal(`/${command.name} `)} />
        </div>
        <WorkspacePicker teamId={team.id} value={files} onChange={setFiles} agentDefault={agent?.workspace ?? null} />
        <fieldset className="grid gap-3 sm:grid-cols-5">
          <legend className="mb-1 text-xs font-medium text-muted">Budget (empty = unlimited)</legend>
          <Field label="Max tokens" htmlFor="composer-tokens">
            <Input id="composer-tokens" name="tokens" type="number" min={1} step={1} placeholder="∞" data-testid="composer-budget-tokens" />
          </Field>
          <Field label="Max cost (USD)" htmlFor="composer-cost">
            <Input id="composer-cost" name="costUsd" type="number" min={0.000001} step="any" placeholder="∞" data-testid="composer-budget-cost" />
          </Field>
          <Field label="Max tool calls" htmlFor="composer-calls">
            <Input id="composer-calls" name="toolCalls" type="number" min={1} step={1} placeholder="∞" data-testid="composer-budget-calls" />
          </Field>
          <Field label="Max minutes" htmlFor="composer-wall">
            <Input id="composer-wall" name="wallMinutes" type="number" min={1} step="any" placeholder="∞" data-testid="composer-budget-wall" />
          </Field>
          <Field label="When exceeded" htmlFor="composer-exceed">
            <Select id="composer-exceed" name="onExceed" defaultValue="wait" data-testid="composer-budget-exceed">
              <option value="wait">Wait for a raise</option>
              <option value="fail">Fail the run</option>
            </Select>
          </Field>
        </fieldset>
        <InlineError error={filesError ?? create.error} testId="composer-error" />
        <div>
          <Button type="submit" variant="primary" disabled={!agent || create.isPending || create.isSuccess} data-testid="composer-submit">
            <Play aria-hidden className="size-3.5" />
            {create.isPending || create.isSuccess ? 'Starting…' : 'Start run'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
