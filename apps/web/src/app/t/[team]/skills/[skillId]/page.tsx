import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/page-header';
import { SkillEditor } from '@/components/skills/skill-editor';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Skill' };

/** One skill: another team's (or none, or a malformed id) is a 404. */
export default async function SkillPage(props: { params: Promise<{ team: string; skillId: string }> }) {
  const { team: slug, skillId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  try {
    await caller.skills.get({ teamId: team.id, skillId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
    throw error;
  }
  return (
    <>
      <PageHeader title="Skill" />
      <div className="max-w-6xl px-8 py-6">
        <SkillEditor skillId={skillId} />
      </div>
    </>
  );
}
