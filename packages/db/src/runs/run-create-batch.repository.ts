import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

/**
 * runs.create's group commit writes the runs of a batch, their root sessions and run ledgers in ONE
 * statement (a burst of creates costs one round trip here, not three per run). The caller admits
 * the batch and appends its audit rows in the same transaction.
 */

/** A run to insert queued: the fields the API prepared (its `PreparedRun` is one). */
export interface QueuedRunInsert {
  runId: string;
  sessionId: string;
  ledgerId: string;
  teamId: string;
  agentId: string;
  endpointId: string;
  goal: string;
  createdById: string;
  createdByTokenId: string | null;
  busyPolicy: string;
  persistent: boolean;
  /** Stored as the run's budget; its limits become the run ledger's. */
  budget: { tokens?: number; costMicros?: number; toolCalls?: number };
  /** Stored as the run's workspace (JSON); null: empty. */
  workspace: unknown;
  /** The root session's config (JSON). */
  config: unknown;
  title: string;
  /** The schedule tick that made the run (unique together: one run per tick), if one did. */
  schedule?: { scheduleId: string; scheduledAt: Date };
  triggerId?: string;
}

const INSERT_RUNS_SQL = namedQuery({
  name: 'looplane_run_create_batch_v1',
  params: { input: param.jsonb },
  text: `
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(:input) AS i(
        "runId" text, "sessionId" text, "ledgerId" text, "teamId" text, "agentId" text, "endpointId" text, goal text,
        "createdById" text, "createdByTokenId" text, "busyPolicy" text, persistent boolean, budget jsonb, workspace jsonb, config jsonb, title text,
        "limitTokens" int8, "limitCostMicros" int8, "limitCalls" int4, "scheduleId" text, "scheduledAt" timestamptz,
        "triggerId" text)
    ), run AS (
      INSERT INTO "Run" (id, "teamId", "agentId", goal, status, "createdById", "createdByTokenId", "busyPolicy", persistent, budget, workspace,
                         "rootSessionId", "mainSessionId", "updatedAt", "scheduleId", "scheduledAt", "triggerId")
      SELECT "runId", "teamId", "agentId", goal, 'queued'::"RunStatus", "createdById", "createdByTokenId", "busyPolicy", persistent, budget, workspace,
             "sessionId", "sessionId", now(), "scheduleId", "scheduledAt" AT TIME ZONE 'UTC', "triggerId"
      FROM input
      RETURNING id
    ), session AS (
      INSERT INTO "Session" (id, "runId", "agentId", "endpointId", status, config, title, "createdById", "updatedAt")
      SELECT i."sessionId", run.id, i."agentId", i."endpointId", 'idle'::"SessionStatus", i.config, i.title, i."createdById", now()
      FROM input i JOIN run ON run.id = i."runId"
    )
    INSERT INTO "BudgetLedger" (id, "runId", scope, "scopeId", "limitTokens", "limitCostMicros", "limitCalls", "updatedAt")
    SELECT i."ledgerId", run.id, 'run'::"LedgerScope", '', i."limitTokens", i."limitCostMicros", i."limitCalls", now()
    FROM input i JOIN run ON run.id = i."runId"`,
});

/**
 * Inserts the runs, root sessions and run ledgers of a batch in one statement, inside the caller's
 * transaction. Throws unless every run got its ledger (the transaction then rolls back whole).
 */
export async function insertQueuedRuns(tx: Tx, runs: readonly QueuedRunInsert[]): Promise<void> {
  const input = JSON.stringify(
    runs.map((r) => ({
      runId: r.runId,
      sessionId: r.sessionId,
      ledgerId: r.ledgerId,
      teamId: r.teamId,
      agentId: r.agentId,
      endpointId: r.endpointId,
      goal: r.goal,
      createdById: r.createdById,
      createdByTokenId: r.createdByTokenId,
      busyPolicy: r.busyPolicy,
      persistent: r.persistent,
      budget: r.budget,
      workspace: r.workspace,
      config: r.config,
      title: r.title,
      limitTokens: r.budget.tokens ?? null,
      limitCostMicros: r.budget.costMicros ?? null,
      limitCalls: r.budget.toolCalls ?? null,
      scheduleId: r.schedule?.scheduleId ?? null,
      scheduledAt: r.schedule?.scheduledAt.toISOString() ?? null,
      triggerId: r.triggerId ?? null,
    })),
  );
  const insert = INSERT_RUNS_SQL.bind({ input });
  // The affected-row count (the ledgers) is what proves every run was written: executed, not queried.
  const inserted = await tx.$executeRawUnsafe(insert.text, ...insert.values);
  if (inserted !== runs.length) throw new Error(`run batch inserted ${inserted} of ${runs.length} ledgers`);
}
