import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@looplane/webhooks/events';

/** What each event of the catalog reports, in the words of the trigger that captures it. */
const EVENT_HINTS: Record<WebhookEventType, string> = {
  'run.finished': 'a run succeeded, failed or was cancelled',
  'run.waiting': 'a run waits for an approval, a child, a budget, a message or an isolation level',
  'approval.requested': 'a tool call is held for a decision (with a link to it)',
  'approval.decided': 'an approval was approved, rejected, expired or cancelled',
  'budget.exceeded': 'a ledger refused a reservation (the run’s or a graph edge’s)',
  'graph.edge.exhausted': 'a graph edge ran out of tokens, cost or calls',
  'schedule.paused': 'a schedule paused itself after its runs failed too many times in a row',
};

/** One checkbox per subscribable event (form field `events`), from the catalog in @looplane/webhooks. */
export function EventCheckboxes({ idPrefix, selected }: { idPrefix: string; selected: readonly string[] }) {
  return (
    <fieldset className="flex flex-col gap-1.5" data-testid="webhook-events">
      <legend className="mb-1 text-xs font-medium text-muted">Events</legend>
      <div className="grid gap-x-4 gap-y-1.5 sm:grid-cols-2">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} htmlFor={`${idPrefix}-${type}`} className="flex cursor-pointer items-start gap-2 text-[13px]">
            <input
              id={`${idPrefix}-${type}`}
              type="checkbox"
              name="events"
              value={type}
              defaultChecked={selected.includes(type)}
              className="mt-0.5 size-3.5 accent-accent"
              data-testid={`webhook-event-${type}`}
            />
            <span>
              <span className="font-mono text-xs font-medium">{type}</span>
              <span className="block text-xs text-muted">{EVENT_HINTS[type]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
