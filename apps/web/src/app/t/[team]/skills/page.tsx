import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { SkillsPanel } from '@/components/skills/skills-panel';

export const metadata: Metadata = { title: 'Skills' };

export default function SkillsPage() {
  return (
    <>
      <PageHeader title="Skills" description="The team's instruction packs, loaded by agents on demand." />
      <div className="max-w-6xl px-8 py-6">
        <SkillsPanel />
      </div>
    </>
  );
}
