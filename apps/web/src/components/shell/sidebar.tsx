'use client';

import type { Role } from '@looplane/shared';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTeamActivityState } from '@/components/live/team-activity';
import { cn } from '@/lib/cn';
import { NAV_ITEMS, type NavItem } from './nav-items';
import { TeamSwitcher } from './team-switcher';
import { UserMenu } from './user-menu';

interface TeamItem {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

const itemClass = 'flex h-8 items-center gap-2.5 rounded-md px-2 text-[13px]';

/** Live indicators next to nav items: the activity stream's state on Runs, pending approvals. */
function NavExtra({ id }: { id: string }) {
  const { connected, pendingApprovals } = useTeamActivityState();
  if (id === 'runs') {
    return (
      <span
        data-testid="activity-live"
        data-connected={connected}
        title={connected ? 'Live updates on' : 'Live updates reconnecting'}
        className={cn('size-1.5 rounded-full', connected ? 'bg-success' : 'bg-border-strong')}
      />
    );
  }
  if (id === 'approvals' && pendingApprovals) {
    return (
      <span data-testid="nav-approvals-pending" className="rounded bg-warning-soft px-1 text-[10px] font-medium text-warning">
        {pendingApprovals}
      </span>
    );
  }
  return null;
}

function NavLink({ item, base, pathname }: { item: NavItem; base: string; pathname: string }) {
  const Icon = item.icon;
  if (item.path === null) {
    return (
      <span
        aria-disabled="true"
        title={`${item.label} is coming soon`}
        data-testid={`nav-${item.id}`}
        className={cn(itemClass, 'cursor-not-allowed text-muted/60')}
      >
        <Icon aria-hidden className="size-4" />
        <span className="flex-1">{item.label}</span>
        <NavExtra id={item.id} />
        <span className="rounded border border-border px-1 text-[10px] tracking-wide uppercase">soon</span>
      </span>
    );
  }
  const href = base + item.path;
  // A section is active on any of its pages (`/runs/abc` lights up Runs; `/settings/tokens` Settings).
  const section = item.path.split('/')[1];
  const active = section === undefined ? pathname === base : pathname === `${base}/${section}` || pathname.startsWith(`${base}/${section}/`);
  return (
    <Link
      href={href}
      data-testid={`nav-${item.id}`}
      aria-current={active ? 'page' : undefined}
      className={cn(itemClass, active ? 'bg-accent-soft font-medium text-accent' : 'text-foreground/80 hover:bg-surface-2 hover:text-foreground')}
    >
      <Icon aria-hidden className="size-4" />
      <span className="flex-1">{item.label}</span>
      <NavExtra id={item.id} />
      {item.shortcut ? <kbd className="hidden font-mono text-[10px] text-muted lg:inline">g {item.shortcut}</kbd> : null}
    </Link>
  );
}

/** The left sidebar: brand, team switcher, navigation and the user menu. */
export function Sidebar(props: { team: TeamItem; teams: TeamItem[]; user: { email: string; name: string | null } }) {
  const pathname = usePathname();
  const base = `/t/${props.team.slug}`;
  return (
    <aside className="sticky top-0 flex h-screen w-60 shrink-0 flex-col border-r border-border bg-surface">
      <div className="flex h-12 items-center gap-2 px-4">
        <svg aria-hidden viewBox="0 0 24 24" className="size-5 text-accent" fill="none" stroke="currentColor" strokeWidth="2.2">
          <path d="M4 12a8 8 0 0 1 14.5-4.6M20 12a8 8 0 0 1-14.5 4.6" strokeLinecap="round" />
          <path d="M18.5 3v4.4h-4.4M5.5 21v-4.4h4.4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="text-sm font-semibold tracking-tight">Looplane</span>
      </div>
      <div className="px-3 pb-3">
        <TeamSwitcher current={props.team} initialTeams={props.teams} />
      </div>
      <nav aria-label="Team" className="flex flex-1 flex-col gap-0.5 overflow-y-auto px-3">
        {NAV_ITEMS.map((item) => (
          <NavLink key={item.id} item={item} base={base} pathname={pathname} />
        ))}
      </nav>
      <UserMenu email={props.user.email} name={props.user.name} />
    </aside>
  );
}
