import type { Metadata } from 'next';
import { KeyRound, Users } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Overview' };

function Stat(props: { href: string; icon: ReactNode; label: string; value: number; note: string; testId: string }) {
  return (
    <Link
      href={props.href}
      data-testid={props.testId}
      className="group rounded-lg border border-border bg-surface p-4 shadow-xs transition-colors hover:border-border-strong"
    >
      <div className="flex items-center gap-2 text-muted">
        {props.icon}
        <span className="text-xs font-medium">{props.label}</span>
      </div>
      <p className="mt-2 text-2xl font-semibold tabular-nums" data-testid={`${props.testId}-value`}>
        {props.value}
      </p>
      <p className="mt-0.5 text-xs text-muted group-hover:text-foreground">{props.note} →</p>
    </Link>
  );
}

export default async function TeamOverviewPage(props: { params: Promise<{ team: string }> }) {
  const { team: slug } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  const [members, tokens] = await Promise.all([
    caller.teams.members({ teamId: team.id }),
    caller.tokens.list({ teamId: team.id }),
  ]);
  const now = Date.now();
  const activeTokens = tokens.filter((t) => !t.revokedAt && (!t.expiresAt || t.expiresAt.getTime() > now)).length;
  const base = `/t/${team.slug}`;

  return (
    <>
      <PageHeader
        title={team.name}
        description={
          <span className="inline-flex items-center gap-2">
            <span className="font-mono text-xs">{team.slug}</span>
            <span aria-hidden>·</span>
            <span>
              your role <Badge tone="accent" data-testid="overview-role">{team.role}</Badge>
            </span>
          </span>
        }
      />
      <div className="flex max-w-6xl flex-col gap-6 px-8 py-6">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Stat
            href={`${base}/settings/members`}
            icon={<Users aria-hidden className="size-4" />}
            label="Members"
            value={members.length}
            note="Manage members"
            testId="overview-members"
          />
          <Stat
            href={`${base}/settings/tokens`}
            icon={<KeyRound aria-hidden className="size-4" />}
            label={team.role === 'admin' ? 'Active API tokens' : 'Your active API tokens'}
            value={activeTokens}
            note="Manage API tokens"
            testId="overview-tokens"
          />
        </div>
        <Card>
          <CardHeader
            title="Use the API"
            description="Every dashboard action is a tRPC procedure. Scripts and the CLI authenticate with a team API token."
          />
          <pre className="overflow-x-auto px-4 py-3 font-mono text-xs leading-6 text-muted">
            <span className="text-foreground">curl</span> -H{' '}
            <span className="text-accent">&quot;Authorization: Bearer $LOOPLANE_TOKEN&quot;</span> {'<server>'}/api/trpc/me
          </pre>
        </Card>
      </div>
    </>
  );
}
