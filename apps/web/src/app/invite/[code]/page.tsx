import type { Metadata } from 'next';
import { InviteLanding } from '@/components/invitations/invite-landing';
import { getViewer } from '@/server/viewer';

export const metadata: Metadata = { title: 'Invitation' };

/**
 * `/invite/<code>`: the link an admin sends with an invitation. Signed out, the invitee signs up
 * with it (or signs in, coming back here); signed in, they accept from their invitations.
 */
export default async function InvitePage(props: { params: Promise<{ code: string }> }) {
  const { code } = await props.params;
  const viewer = await getViewer();
  return (
    <main className="grid min-h-screen place-items-center bg-background p-6">
      <div className="w-full max-w-[400px]">
        <InviteLanding code={code} signedInAs={viewer?.me.user.email ?? null} />
      </div>
    </main>
  );
}
