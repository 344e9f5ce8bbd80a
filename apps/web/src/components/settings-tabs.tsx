'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/lib/cn';
import { SETTINGS_ITEMS } from './shell/nav-items';

/** The settings tabs under the settings header; a tab stays current on its sub-pages (a webhook's delivery log). */
export function SettingsTabs({ base }: { base: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="-mb-px flex gap-4">
      {SETTINGS_ITEMS.map((item) => {
        const href = base + item.path;
        const active = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <Link
            key={item.id}
            href={href}
            data-testid={`settings-tab-${item.id}`}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'border-b-2 px-0.5 pb-2.5 text-[13px] font-medium transition-colors',
              active ? 'border-accent text-foreground' : 'border-transparent text-muted hover:text-foreground',
            )}
          >
            {item.label}
            <kbd className="ml-2 hidden font-mono text-[10px] font-normal text-muted lg:inline">g {item.shortcut}</kbd>
          </Link>
        );
      })}
    </nav>
  );
}
