import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DeliveriesPanel } from '@/components/webhooks/deliveries-panel';
import { requireTeamScope } from '@/server/team-scope';

export const metadata: Metadata = { title: 'Webhook deliveries' };

/**
 * One endpoint's delivery log. For an admin, another team's endpoint (or none, or a malformed id)
 * is a 404; below admin the page says it is for admins and asks the server nothing.
 */
export default async function WebhookDeliveriesPage(props: { params: Promise<{ team: string; webhookId: string }> }) {
  const { team: slug, webhookId } = await props.params;
  const { caller, team } = await requireTeamScope(slug);
  if (team.role === 'admin') {
    try {
      await caller.webhooks.get({ teamId: team.id, webhookId });
    } catch (error) {
      if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) notFound();
      throw error;
    }
  }
  return <DeliveriesPanel webhookId={webhookId} />;
}
