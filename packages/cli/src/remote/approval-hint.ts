import { unwrap } from '@looplane/client';
import type { ClientEvent } from '@looplane/events';
import type { ApiClient } from './client';

const ATTEMPTS = 5;
const RETRY_MS = 200;

/**
 * The line under an `approval.requested` event that names the approval, so `looplane approve ID`
 * can follow: the event does not carry the id, the inbox row does (one row per session and
 * request seq). The worker writes that row right after the event, so a missing row is retried
 * briefly; null when it cannot be found (the event line itself is still printed).
 */
export async function approvalHint(api: ApiClient, runId: string, event: Pick<ClientEvent, 'sessionId' | 'seq'>): Promise<string | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      // Pending first: the approval still waiting is on the first page.
      const page = await unwrap(api.GET('/approvals', { params: { query: { runId, limit: 100 } } }));
      const row = page.items.find((a) => a.sessionId === event.sessionId && a.requestSeq === event.seq);
      if (row) {
        return row.status === 'pending'
          ? `    approval ${row.id}: looplane approve ${row.id}  (or looplane reject ${row.id})`
          : `    approval ${row.id} (${row.status})`;
      }
    } catch {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  return null;
}
