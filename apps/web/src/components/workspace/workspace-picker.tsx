'use client';

import type { WorkspaceSource } from '@looplane/engine';
import type { Dispatch, SetStateAction } from 'react';
import { Field, Input } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import type { WorkspaceChoice, WorkspaceDraft } from '@/lib/workspace-draft';
import { RepositoryFields } from './repository-fields';
import { UploadField } from './upload-field';

/** One line naming a stored default, as the "none" choice explains it. */
export function describeSource(source: WorkspaceSource): string {
  if ('git' in source) return `${source.git.url}${source.git.ref ? ` @ ${source.git.ref}` : ''}`;
  if ('archive' in source) return `upload ${source.archive.uploadId}`;
  return `session ${source.session.sessionId}${source.session.atEvent ? ` at #${source.session.atEvent}` : ''}`;
}

const CHOICES: { value: WorkspaceChoice; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'git', label: 'Repository' },
  { value: 'archive', label: 'Upload' },
  { value: 'session', label: 'Another session' },
];

/**
 * The New run page's "Files" section: what the run's workspace holds before the agent's first
 * step. None (the agent's default when it has one, else an empty workspace), a repository the
 * worker clones, an uploaded archive, or another session's files at one of its events.
 */
export function WorkspacePicker({
  teamId,
  value,
  onChange,
  agentDefault,
}: {
  teamId: string;
  value: WorkspaceDraft;
  /** A state setter: an upload finishes later, and must not undo what was changed meanwhile. */
  onChange: Dispatch<SetStateAction<WorkspaceDraft>>;
  agentDefault: WorkspaceSource | null;
}) {
  return (
    <fieldset className="flex flex-col gap-3" data-testid="workspace-picker" data-choice={value.choice}>
      <legend className="mb-1 text-xs font-medium text-muted">Files (optional)</legend>
      <div role="radiogroup" aria-label="Where the run's files come from" className="flex flex-wrap gap-1.5">
        {CHOICES.map((choice) => (
          <label
            key={choice.value}
            className={cn(
              'flex cursor-pointer items-center gap-1.5 rounded-md border px-2.5 py-1 text-[13px]',
              value.choice === choice.value ? 'border-accent bg-accent-soft text-foreground' : 'border-border-strong text-muted hover:text-foreground',
            )}
          >
            <input
              type="radio"
              name="workspace-choice"
              value={choice.value}
              checked={value.choice === choice.value}
              onChange={() => onChange((draft) => ({ ...draft, choice: choice.value }))}
              className="accent-accent"
              data-testid={`workspace-choice-${choice.value}`}
            />
            {choice.label}
          </label>
        ))}
      </div>
      {value.choice === 'none' ? (
        <p className="text-xs text-muted" data-testid="workspace-none-hint">
          {agentDefault ? (
            <>
              The agent&apos;s default: <span className="font-mono text-foreground">{describeSource(agentDefault)}</span>
            </>
          ) : (
            'The run starts with an empty workspace.'
          )}
        </p>
      ) : null}
      {value.choice === 'git' ? (
        <RepositoryFields
          value={value.repository}
          onChange={(repository) => onChange((draft) => ({ ...draft, repository }))}
          idPrefix="workspace-git"
          testPrefix="workspace-git"
        />
      ) : null}
      {/* Kept mounted while another choice is shown, so a finished upload is not lost by looking elsewhere. */}
      <div hidden={value.choice !== 'archive'}>
        <UploadField teamId={teamId} onUploaded={(uploadId) => onChange((draft) => ({ ...draft, uploadId }))} />
      </div>
      {value.choice === 'session' ? (
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Session id" htmlFor="workspace-session-id" className="sm:col-span-2" hint="The id of a branch of any run of this team">
            <Input
              id="workspace-session-id"
              value={value.session.sessionId}
              maxLength={64}
              spellCheck={false}
              onChange={(e) => onChange((draft) => ({ ...draft, session: { ...draft.session, sessionId: e.target.value } }))}
              data-testid="workspace-session-id"
            />
          </Field>
          <Field label="At event (optional)" htmlFor="workspace-session-event" hint="Default: its latest files">
            <Input
              id="workspace-session-event"
              type="number"
              min={1}
              step={1}
              value={value.session.atEvent}
              onChange={(e) => onChange((draft) => ({ ...draft, session: { ...draft.session, atEvent: e.target.value } }))}
              data-testid="workspace-session-event"
            />
          </Field>
        </div>
      ) : null}
    </fieldset>
  );
}
