'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/** Whether a save should send `skills`: a new agent always, an edited one only when the list changed (so an archived skill it lists does not block saving other fields). */
export function skillsChanged(selected: readonly string[], stored: readonly string[] | undefined): boolean {
  return stored === undefined || selected.length !== stored.length || selected.some((name, index) => name !== stored[index]);
}

/**
 * The team skills this agent's runs are offered (`skills`): the model sees each one's name and
 * one line and loads the rest with load_skill. A listed skill that is archived (or gone) stays
 * shown, checked, so it can be taken off; the server refuses to save one that does not exist.
 */
export function AgentSkillsField({ selected, onChange }: { selected: readonly string[]; onChange: (names: string[]) => void }) {
  const trpc = useTRPC();
  const { team } = useTeamScope();
  const skills = useQuery(trpc.skills.list.queryOptions({ teamId: team.id, archived: false }));
  const library = skills.data ?? [];
  const missing = selected.filter((name) => !library.some((skill) => skill.name === name));
  const toggle = (name: string, on: boolean) => onChange(on ? [...selected, name] : selected.filter((other) => other !== name));

  return (
    <fieldset className="flex flex-col gap-2" data-testid="agent-skills">
      <legend className="mb-1 text-xs font-medium text-muted">Skills ({selected.length} offered)</legend>
      <p className="text-xs text-muted">
        Instruction packs its runs may load on demand. Manage them on the{' '}
        <Link href={`/t/${team.slug}/skills`} className="text-accent underline">
          Skills page
        </Link>
        .
      </p>
      <InlineError error={skills.error} testId="agent-skills-error" />
      {skills.isSuccess && library.length === 0 && missing.length === 0 ? <p className="text-xs text-muted">The team has no skills yet.</p> : null}
      <ul className="grid max-h-56 gap-1 overflow-y-auto sm:grid-cols-2">
        {library.map((skill) => (
          <li key={skill.id}>
            <label className="flex items-start gap-2 rounded-md px-1.5 py-1 text-[13px] hover:bg-surface-2">
              <input
                type="checkbox"
                className="mt-1"
                checked={selected.includes(skill.name)}
                onChange={(event) => toggle(skill.name, event.target.checked)}
                data-testid="agent-skill"
                data-skill-name={skill.name}
              />
              <span className="min-w-0">
                <span className="font-mono">{skill.name}</span>
                <span className="block truncate text-xs text-muted" title={skill.description}>
                  {skill.description}
                </span>
              </span>
            </label>
          </li>
        ))}
        {skills.isSuccess
          ? missing.map((name) => (
              <li key={name}>
                <label className="flex items-center gap-2 rounded-md px-1.5 py-1 text-[13px]">
                  <input type="checkbox" checked onChange={() => toggle(name, false)} data-testid="agent-skill" data-skill-name={name} />
                  <span className="font-mono">{name}</span>
                  <Badge tone="warning">archived or deleted</Badge>
                </label>
              </li>
            ))
          : null}
      </ul>
    </fieldset>
  );
}
