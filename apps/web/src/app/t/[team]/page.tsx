import type { Metadata } from 'next';
import { OverviewPanel } from '@/components/overview/overview-panel';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Overview' };

export default async function TeamOverviewPage(props: { params: Promise<{ team: string }> }) {
  const { team: slug } = await props.params;
  const { team } = await requireTeamScope(slug);
  return (
    <>
      <PageHeader
        title={team.name}
        description={
          <span className="inline-flex items-center gap-2">
            <span className="font-mono text-xs">{team.slug}</span>
            <span aria-hidden>·</span>
            <span>
              your role{' '}
              <Badge tone="accent" data-testid="overview-role">
                {team.role}
              </Badge>
            </span>
          </span>
        }
      />
      <OverviewPanel />
    </>
  );
}
