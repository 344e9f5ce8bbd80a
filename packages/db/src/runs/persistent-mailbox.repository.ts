import type { Queryable } from './pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * A persistent agent's mailbox: its newest persistent run that was not cancelled (nor asked to be).
 * Schedules and start_run triggers of a persistent agent send their goal there as a message instead
 * of starting a second run, so one run with its whole history serves every tick and delivery; a
 * succeeded or failed one is continued by that message. None (the first delivery, or the last one
 * was cancelled): the caller starts a run, which becomes the mailbox.
 */
const MAILBOX_SQL = namedQuery({
  name: 'looplane_persistent_mailbox_v1',
  params: { team_id: param.text, agent_id: param.text },
  text: `
SELECT r.id FROM "Run" r
WHERE r."teamId" = :team_id AND r."agentId" = :agent_id AND r.persistent
  AND r.status <> 'cancelled' AND r."cancelRequestedAt" IS NULL
ORDER BY r."createdAt" DESC, r.id DESC
LIMIT 1`,
}).returns<{ id: string }>();

/** The run a persistent agent's schedules and triggers message, or null when it has none live. */
async function persistentMailboxRun(db: Queryable, teamId: string, agentId: string): Promise<string | null> {
  return rowsOf(MAILBOX_SQL, await db.query(MAILBOX_SQL.bind({ team_id: teamId, agent_id: agentId })))[0]?.id ?? null;
}

const AGENT_PERSISTENT_SQL = namedQuery({
  name: 'looplane_agent_persistent_v1',
  params: { team_id: param.text, agent_id: param.text },
  text: `SELECT persistent FROM "AgentTemplate" WHERE id = :agent_id AND "teamId" = :team_id`,
}).returns<{ persistent: boolean }>();

/** Whether the team's agent is persistent (false for an unknown one: runs.create reports that). */
async function agentIsPersistent(db: Queryable, teamId: string, agentId: string): Promise<boolean> {
  return rowsOf(AGENT_PERSISTENT_SQL, await db.query(AGENT_PERSISTENT_SQL.bind({ team_id: teamId, agent_id: agentId })))[0]?.persistent ?? false;
}

/** The mailbox run a delivery to `agentId` goes to: null for no agent, a plain agent, or no live mailbox. */
export async function mailboxForDelivery(db: Queryable, teamId: string, agentId: string | null): Promise<string | null> {
  if (!agentId || !(await agentIsPersistent(db, teamId, agentId))) return null;
  return persistentMailboxRun(db, teamId, agentId);
}
