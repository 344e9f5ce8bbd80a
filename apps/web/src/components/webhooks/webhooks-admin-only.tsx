/** What a member below admin sees on the webhook pages: the router is admin-only, so nothing is asked of it. */
export function WebhooksAdminOnly() {
  return (
    <p className="rounded-md border border-border bg-surface-2/60 px-4 py-3 text-muted" data-testid="webhooks-admin-only">
      Webhooks are for admins only: an endpoint receives every event it subscribes to. Ask an admin of this team to add or change one.
    </p>
  );
}
