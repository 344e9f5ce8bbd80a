'use client';

import { LogOut } from 'lucide-react';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ThemeToggle } from './theme-toggle';

/** Who is signed in, the theme toggle and sign out, at the foot of the sidebar. */
export function UserMenu({ email, name }: { email: string; name: string | null }) {
  const [leaving, setLeaving] = useState(false);
  const initials = (name ?? email).slice(0, 2).toUpperCase();
  return (
    <div className="flex items-center gap-2 border-t border-border px-3 py-2.5" data-testid="user-menu">
      <span aria-hidden className="grid size-7 shrink-0 place-items-center rounded-full bg-surface-2 text-[11px] font-semibold text-muted ring-1 ring-border">
        {initials}
      </span>
      <span className="min-w-0 flex-1">
        {name ? <span className="block truncate text-[13px] font-medium">{name}</span> : null}
        <span className="block truncate text-[11px] text-muted" data-testid="user-email">
          {email}
        </span>
      </span>
      <ThemeToggle />
      <Button
        variant="ghost"
        size="icon"
        data-testid="signout"
        aria-label="Sign out"
        title="Sign out"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          void signOut({ callbackUrl: '/signin' });
        }}
      >
        <LogOut aria-hidden className="size-4" />
      </Button>
    </div>
  );
}
