import type { ReactNode } from 'react';
import { InvitationsBanner } from '@/components/invitations/invitations-banner';
import { TeamActivityProvider } from '@/components/live/team-activity';
import { KeyboardShortcuts } from '@/components/shell/keyboard-shortcuts';
import { Sidebar } from '@/components/shell/sidebar';
import { TeamScopeProvider } from '@/components/team-context';
import { requireTeamScope } from '@/server/team-scope';

/** The dashboard shell for one team: sidebar + page. Membership is checked on every request. */
export default async function TeamLayout(props: { children: ReactNode; params: Promise<{ team: string }> }) {
  const { team: slug } = await props.params;
  const { me, team } = await requireTeamScope(slug);
  const { role, ...teamInfo } = team;
  return (
    <TeamScopeProvider value={{ team: teamInfo, role, user: me.user }}>
      <TeamActivityProvider teamId={team.id}>
        <div className="flex min-h-screen">
          <Sidebar team={team} teams={me.teams} user={me.user} />
          <main className="min-w-0 flex-1">
            <InvitationsBanner />
            {props.children}
          </main>
        </div>
      </TeamActivityProvider>
      <KeyboardShortcuts base={`/t/${team.slug}`} />
    </TeamScopeProvider>
  );
}
