import {
  Activity,
  BookOpen,
  Bot,
  CalendarClock,
  CircleDollarSign,
  Inbox,
  LayoutDashboard,
  Network,
  Plug,
  ScrollText,
  Settings,
  ShieldCheck,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  id: string;
  label: string;
  icon: LucideIcon;
  /** Path below `/t/<team>`; null while the page is not built yet (shown disabled, "soon"). */
  path: string | null;
  /** `g <key>` jumps here. */
  shortcut?: string;
}

export const NAV_ITEMS: NavItem[] = [
  { id: 'overview', label: 'Overview', icon: LayoutDashboard, path: '', shortcut: 'o' },
  { id: 'runs', label: 'Runs', icon: Activity, path: '/runs', shortcut: 'r' },
  { id: 'agents', label: 'Agents', icon: Bot, path: '/agents', shortcut: 'a' },
  { id: 'skills', label: 'Skills', icon: BookOpen, path: '/skills', shortcut: 's' },
  { id: 'approvals', label: 'Approvals', icon: Inbox, path: '/approvals' },
  { id: 'graphs', label: 'Graphs', icon: Network, path: '/graphs' },
  { id: 'schedules', label: 'Schedules', icon: CalendarClock, path: '/schedules', shortcut: 'c' },
  { id: 'triggers', label: 'Triggers', icon: Webhook, path: '/triggers', shortcut: 'h' },
  { id: 'policies', label: 'Policies', icon: ShieldCheck, path: '/policies' },
  { id: 'endpoints', label: 'Endpoints', icon: Plug, path: '/endpoints' },
  { id: 'costs', label: 'Costs', icon: CircleDollarSign, path: '/costs' },
  { id: 'audit', label: 'Audit', icon: ScrollText, path: '/audit' },
  { id: 'settings', label: 'Settings', icon: Settings, path: '/settings/members' },
];

/** Settings sub-pages; `g m` / `g t` / `g i` / `g w` / `g x` / `g k` / `g p` jump to them. */
export const SETTINGS_ITEMS = [
  { id: 'members', label: 'Members', path: '/settings/members', shortcut: 'm' },
  { id: 'tokens', label: 'API tokens', path: '/settings/tokens', shortcut: 't' },
  { id: 'api', label: 'API', path: '/settings/api', shortcut: 'i' },
  { id: 'webhooks', label: 'Webhooks', path: '/settings/webhooks', shortcut: 'w' },
  { id: 'sandbox', label: 'Sandbox', path: '/settings/sandbox', shortcut: 'x' },
  { id: 'secrets', label: 'Secrets', path: '/settings/secrets', shortcut: 'k' },
  { id: 'account', label: 'Account', path: '/settings/account', shortcut: 'p' },
] as const;
