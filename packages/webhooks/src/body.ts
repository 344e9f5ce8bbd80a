/** The body of a delivery: `{ type, timestamp, data }` (Standard Webhooks' shape), as sent on every attempt. */
export function webhookBody(type: string, timestamp: string, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp, data });
}

/**
 * Links into the dashboard for an event's data, under the public URL (LOOPLANE_PUBLIC_URL or
 * NEXTAUTH_URL; none: no links): `runUrl` for an event of a run, and for `approval.requested` the
 * approval's `url` in the team's approvals inbox.
 */
export function withDashboardLinks(type: string, data: Record<string, unknown>, team: { slug: string }, publicUrl: string | null): Record<string, unknown> {
  if (!publicUrl) return data;
  const base = `${publicUrl.replace(/\/+$/, '')}/t/${encodeURIComponent(team.slug)}`;
  const links: Record<string, string> = {};
  if (typeof data.runId === 'string') links.runUrl = `${base}/runs/${encodeURIComponent(data.runId)}`;
  if (type === 'approval.requested' && typeof data.approvalId === 'string') links.url = `${base}/approvals?approval=${encodeURIComponent(data.approvalId)}`;
  return { ...data, ...links };
}
