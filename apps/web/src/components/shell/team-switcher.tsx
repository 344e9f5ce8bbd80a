'use client';

import type { Role } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { Check, ChevronsUpDown } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/cn';
import { useTRPC } from '@/trpc/client';

interface TeamItem {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

/** The current team and a dropdown of the viewer's teams (teams.list), each with its role. */
export function TeamSwitcher({ current, initialTeams }: { current: TeamItem; initialTeams: TeamItem[] }) {
  const trpc = useTRPC();
  const teams = useQuery(trpc.teams.list.queryOptions(undefined, { initialData: initialTeams }));
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        data-testid="team-switcher"
        className="flex w-full items-center gap-2.5 rounded-md border border-border bg-surface px-2 py-1.5 text-left shadow-xs hover:bg-surface-2"
      >
        <span className="grid size-7 shrink-0 place-items-center rounded-md bg-accent text-xs font-semibold text-accent-foreground uppercase">
          {current.name.slice(0, 1)}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-[13px] font-medium">{current.name}</span>
          <span className="block truncate font-mono text-[11px] text-muted">
            {current.slug} · {current.role}
          </span>
        </span>
        <ChevronsUpDown aria-hidden className="size-3.5 shrink-0 text-muted" />
      </PopoverTrigger>
      <PopoverContent
        aria-label="Your teams"
        className="max-h-72 w-(--radix-popover-trigger-width) overflow-auto"
        // Keyboard users land on the current team; Tab / Shift-Tab move through the list.
        onOpenAutoFocus={(event) => {
          const mine = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('[aria-current="true"]');
          if (mine) {
            event.preventDefault();
            mine.focus();
          }
        }}
      >
        <ul>
          {(teams.data ?? initialTeams).map((team) => (
            <li key={team.id}>
              <Link
                href={`/t/${team.slug}`}
                aria-current={team.id === current.id ? 'true' : undefined}
                data-testid={`team-option-${team.slug}`}
                onClick={close}
                className={cn('flex items-center gap-2 rounded px-2 py-1.5 hover:bg-surface-2', team.id === current.id && 'bg-surface-2')}
              >
                <span className="min-w-0 flex-1 truncate">{team.name}</span>
                <Badge>{team.role}</Badge>
                <Check aria-hidden className={cn('size-3.5 text-accent', team.id === current.id ? 'visible' : 'invisible')} />
              </Link>
            </li>
          ))}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
