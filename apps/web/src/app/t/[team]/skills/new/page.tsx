import { roleAtLeast } from '@looplane/shared';
import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { SkillForm } from '@/components/skills/skill-form';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'New skill' };

export default async function NewSkillPage(props: { params: Promise<{ team: string }> }) {
  const { team: slug } = await props.params;
  const { team } = await requireTeamScope(slug);
  return (
    <>
      <PageHeader title="New skill" />
      <div className="max-w-6xl px-8 py-6">
        {roleAtLeast(team.role, 'operator') ? (
          <SkillForm />
        ) : (
          <p className="text-muted" data-testid="skill-new-forbidden">
            Operators and admins create skills; you can read the team&apos;s skills on the Skills page.
          </p>
        )}
      </div>
    </>
  );
}
