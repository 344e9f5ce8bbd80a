'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { SkillForm } from './skill-form';

/**
 * Loads a skill, then shows the form (editable for operators, read-only for viewers). The form
 * keeps what was typed while the list refreshes; after a refused save "Load the latest" fetches
 * the skill again and starts the form over from it.
 */
export function SkillEditor({ skillId }: { skillId: string }) {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const skill = useQuery({ ...trpc.skills.get.queryOptions({ teamId: team.id, skillId }), refetchOnWindowFocus: false });
  const [generation, setGeneration] = useState(0);
  const back = (
    <Link href={`/t/${team.slug}/skills`} className="inline-flex items-center gap-1.5 text-xs text-muted hover:text-foreground" data-testid="skill-back">
      <ArrowLeft className="size-3.5" aria-hidden />
      All skills
    </Link>
  );
  if (skill.error)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <InlineError error={skill.error} testId="skill-load-error" />
      </div>
    );
  if (!skill.data) return <p className="text-muted">Loading…</p>;
  return (
    <div className="flex flex-col gap-4">
      {back}
      <SkillForm
        key={`${skill.data.id}-${generation}`}
        skill={skill.data}
        readOnly={!roleAtLeast(role, 'operator')}
        onReload={async () => {
          await skill.refetch();
          setGeneration((g) => g + 1);
        }}
      />
    </div>
  );
}
