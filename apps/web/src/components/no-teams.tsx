'use client';

import { signOut } from 'next-auth/react';
import { Button } from '@/components/ui/button';

/** Shown to a signed-in user who belongs to no team yet. */
export function NoTeams({ email }: { email: string }) {
  return (
    <main className="grid min-h-screen place-items-center p-6">
      <div className="max-w-sm text-center" data-testid="no-teams">
        <h1 className="text-lg font-semibold">No teams yet</h1>
        <p className="mt-1 text-muted">
          You are signed in as <span className="font-medium text-foreground">{email}</span>, but you are not a member of
          any team. Ask a team admin to add you.
        </p>
        <Button className="mt-4" onClick={() => void signOut({ callbackUrl: '/signin' })}>
          Sign out
        </Button>
      </div>
    </main>
  );
}
