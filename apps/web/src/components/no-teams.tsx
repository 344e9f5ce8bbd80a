'use client';

import { signOut } from 'next-auth/react';
import { InvitationsBanner } from '@/components/invitations/invitations-banner';
import { Button } from '@/components/ui/button';

/** Shown to a signed-in user who belongs to no team yet, with the invitations they can accept. */
export function NoTeams({ email }: { email: string }) {
  return (
    <main className="flex min-h-screen flex-col">
      <InvitationsBanner />
      <div className="grid flex-1 place-items-center p-6">
        <div className="max-w-sm text-center" data-testid="no-teams">
          <h1 className="text-lg font-semibold">No teams yet</h1>
          <p className="mt-1 text-muted">
            You are signed in as <span className="font-medium text-foreground">{email}</span>, but you are not a member of any team. Accept an invitation above,
            or ask a team admin to invite you.
          </p>
          <Button className="mt-4" onClick={() => void signOut({ callbackUrl: '/signin' })}>
            Sign out
          </Button>
        </div>
      </div>
    </main>
  );
}
