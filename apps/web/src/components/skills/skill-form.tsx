'use client';

import { SKILL_TEXT_MAX_BYTES } from '@looplane/engine';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, Save } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import { errorCode } from '@/components/files/files-format';
import { useTeamScope } from '@/components/team-context';
import { MarkdownEditor } from './markdown-editor';
import { fileDraft, SkillFilesField, type SkillFileDraft } from './skill-files-field';

type Skill = RouterOutputs['skills']['get'];

const INSTRUCTIONS_EXAMPLE =
  '# Drafting a quote\n\n1. Look the items up in the supplier catalogue.\n2. Apply the discount rules.\n3. Draft the quote; ask before writing to the ERP.\n';

/**
 * Create a skill, or edit one (`skill`). A save is a compare-and-set against the version this
 * form was loaded at: if someone saved meanwhile the server refuses, the message says so, and
 * "Load the latest" replaces this form with their version (what was typed here is dropped).
 * Read-only (`readOnly`) for viewers. Nothing is checked here that the server does not check.
 */
export function SkillForm(props: { skill?: Skill; readOnly?: boolean; onReload?: () => void }) {
  const { skill } = props;
  const readOnly = props.readOnly ?? false;
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const [name, setName] = useState(skill?.name ?? '');
  const [description, setDescription] = useState(skill?.description ?? '');
  const [instructions, setInstructions] = useState(skill?.instructions ?? INSTRUCTIONS_EXAMPLE);
  const [files, setFiles] = useState<SkillFileDraft[]>(() => (skill?.files ?? []).map((f) => fileDraft(f.path, f.content)));
  // The version the text here is based on: what a save expects the server to still have.
  const [version, setVersion] = useState(skill?.version ?? 0);
  const [saved, setSaved] = useState(false);
  const refresh = () => queryClient.invalidateQueries(trpc.skills.pathFilter());
  const create = useMutation(
    trpc.skills.create.mutationOptions({
      onSuccess: async (created) => {
        await refresh();
        router.push(`/t/${team.slug}/skills/${created.id}`);
      },
    }),
  );
  const update = useMutation(
    trpc.skills.update.mutationOptions({
      onSuccess: async (updated) => {
        setVersion(updated.version);
        setSaved(true);
        await refresh();
      },
    }),
  );
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const conflict = errorCode(update.error) === 'CONFLICT' && /changed meanwhile/.test(update.error?.message ?? '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const fields = {
      name: name.trim(),
      description: description.trim(),
      instructions,
      files: files.map(({ path, content }) => ({ path: path.trim(), content })),
    };
    if (skill) update.mutate({ teamId: team.id, skillId: skill.id, expectedVersion: version, ...fields });
    else create.mutate({ teamId: team.id, ...fields });
  }

  const title = skill ? (readOnly ? skill.name : `Edit ${skill.name}`) : 'New skill';
  return (
    <Card>
      <CardHeader
        title={title}
        description={
          <span data-testid="skill-version" data-version={version}>
            {skill
              ? `Version ${version}${skill.archivedAt ? ' (archived)' : ''}.${readOnly ? ' Viewers see skills read-only.' : ` Saving makes version ${version + 1}; runs that loaded an older version keep its text.`}`
              : 'Instructions an agent loads on demand with load_skill; list the skill on an agent to offer it.'}
          </span>
        }
      />
      {/* noValidate: the server's messages say what is wrong, the same as for any API client. */}
      <form className="flex flex-col gap-4 p-4" onSubmit={onSubmit} noValidate data-testid="skill-form">
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Name" htmlFor="skill-name" hint="lowercase letters, digits, - and _; what load_skill and an agent's skills list take">
            <Input
              id="skill-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              readOnly={readOnly}
              maxLength={64}
              autoComplete="off"
              className="font-mono"
              data-testid="skill-name"
            />
          </Field>
          <Field label="Description" htmlFor="skill-description" hint="One line: all the model sees before it loads the skill" className="sm:col-span-2">
            <Input
              id="skill-description"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              readOnly={readOnly}
              maxLength={200}
              data-testid="skill-description"
            />
          </Field>
        </div>
        <MarkdownEditor
          id="skill-instructions"
          label="Instructions (Markdown)"
          value={instructions}
          onChange={setInstructions}
          readOnly={readOnly}
          maxBytes={SKILL_TEXT_MAX_BYTES}
          testId="skill-instructions"
        />
        <SkillFilesField files={files} onChange={setFiles} readOnly={readOnly} />
        <InlineError error={error} testId="skill-form-error" />
        {conflict ? (
          <div className="flex flex-wrap items-center gap-2 text-xs text-warning" data-testid="skill-conflict">
            Someone saved this skill after you opened it. Copy what you typed if you need it, then load their version.
            <Button size="sm" onClick={props.onReload} data-testid="skill-reload">
              <RotateCcw aria-hidden className="size-3.5" /> Load the latest
            </Button>
          </div>
        ) : null}
        {readOnly ? null : (
          <div className="flex items-center gap-3">
            <Button type="submit" variant="primary" disabled={pending} data-testid="skill-save">
              <Save aria-hidden className="size-3.5" /> {pending ? 'Saving…' : skill ? 'Save changes' : 'Create skill'}
            </Button>
            {saved && !error ? (
              <span className="text-xs text-success" data-testid="skill-saved">
                Saved as version {version}.
              </span>
            ) : null}
          </div>
        )}
      </form>
    </Card>
  );
}
