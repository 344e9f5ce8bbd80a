import { z } from 'zod';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param } from '../sql/named-query';

/**
 * Inbound triggers (`Trigger`): a public URL that starts a run of an agent or sends a message to
 * a run. The secret is stored sealed (`secretCiphertext`) and only read by the delivery path
 * ({@link triggerForDelivery}); the team's reads never select it. Timestamps are read back as
 * epoch milliseconds so node-postgres and Prisma's raw queries give the same values.
 */

export type TriggerAuthKind = 'standard_webhooks' | 'bearer';

/** A trigger as the team sees it (never its secret). */
export interface TriggerRecord {
  id: string;
  teamId: string;
  name: string;
  target: 'start_run' | 'message_run';
  agentId: string | null;
  graphId: string | null;
  goalTemplate: string | null;
  budget: Record<string, unknown>;
  workspace: unknown;
  runId: string | null;
  auth: TriggerAuthKind;
  rateLimitPerMinute: number;
  enabled: boolean;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the delivery path reads: the trigger and its sealed secret. */
export interface TriggerForDelivery extends TriggerRecord {
  secretCiphertext: string;
}

const epoch = z.number().transform((ms) => new Date(ms));
const recordShape = {
  id: z.string(),
  teamId: z.string(),
  name: z.string(),
  target: z.enum(['start_run', 'message_run']),
  agentId: z.string().nullable(),
  graphId: z.string().nullable(),
  goalTemplate: z.string().nullable(),
  budget: z.record(z.string(), z.unknown()),
  workspace: z.unknown(),
  runId: z.string().nullable(),
  auth: z.enum(['standard_webhooks', 'bearer']),
  rateLimitPerMinute: z.number(),
  enabled: z.boolean(),
  createdById: z.string().nullable(),
  createdAtMs: epoch,
  updatedAtMs: epoch,
};
const present = <T extends { createdAtMs: Date; updatedAtMs: Date }>({ createdAtMs, updatedAtMs, ...row }: T) => ({
  ...row,
  createdAt: createdAtMs,
  updatedAt: updatedAtMs,
});
const recordSchema = z.object(recordShape).transform(present);
const deliverySchema = z.object({ ...recordShape, secretCiphertext: z.string() }).transform(present);

const COLUMNS = `
  id, "teamId", name, target, "agentId", "graphId", "goalTemplate", budget, workspace, "runId", auth::text AS auth,
  "rateLimitPerMinute", enabled, "createdById",
  (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAtMs",
  (extract(epoch FROM "updatedAt") * 1000)::float8 AS "updatedAtMs"`;

/** A new trigger's row; `secretCiphertext` is the secret sealed by the caller. */
export interface NewTrigger {
  id: string;
  teamId: string;
  name: string;
  target: TriggerRecord['target'];
  agentId: string | null;
  graphId: string | null;
  goalTemplate: string | null;
  /** JSON text */
  budget: string;
  /** JSON text, or null */
  workspace: string | null;
  runId: string | null;
  auth: TriggerAuthKind;
  secretCiphertext: string;
  rateLimitPerMinute: number;
  enabled: boolean;
  createdById: string | null;
}

const INSERT_SQL = namedQuery({
  name: 'looplane_trigger_insert_v1',
  params: {
    id: param.text,
    team_id: param.text,
    name: param.text,
    target: param.text,
    agent_id: param.nullableText,
    graph_id: param.nullableText,
    goal_template: param.nullableText,
    budget: param.jsonb,
    workspace: param.nullableJsonb,
    run_id: param.nullableText,
    auth: param.text,
    secret_ciphertext: param.text,
    rate_limit: param.int,
    enabled: param.boolean,
    created_by_id: param.nullableText,
  },
  text: `
INSERT INTO "Trigger" (id, "teamId", name, target, "agentId", "graphId", "goalTemplate", budget, workspace, "runId", auth,
                       "secretCiphertext", "rateLimitPerMinute", enabled, "createdById", "updatedAt")
VALUES (:id, :team_id, :name, :target, :agent_id, :graph_id, :goal_template, :budget, :workspace, :run_id, :auth::"TriggerAuth",
        :secret_ciphertext, :rate_limit, :enabled, :created_by_id, now())
ON CONFLICT ("teamId", name) DO NOTHING
RETURNING ${COLUMNS}`,
});

/** Stores a trigger; null when the team already has a trigger of that name (nothing written). */
export async function insertTrigger(db: Queryable, t: NewTrigger): Promise<TriggerRecord | null> {
  const query = INSERT_SQL.bind({
    id: t.id,
    team_id: t.teamId,
    name: t.name,
    target: t.target,
    agent_id: t.agentId,
    graph_id: t.graphId,
    goal_template: t.goalTemplate,
    budget: t.budget,
    workspace: t.workspace,
    run_id: t.runId,
    auth: t.auth,
    secret_ciphertext: t.secretCiphertext,
    rate_limit: t.rateLimitPerMinute,
    enabled: t.enabled,
    created_by_id: t.createdById,
  });
  const row = (await db.query(query)).rows[0];
  return row === undefined ? null : recordSchema.parse(row);
}

const LIST_SQL = namedQuery({
  name: 'looplane_trigger_list_v1',
  params: { team_id: param.text },
  text: `SELECT ${COLUMNS} FROM "Trigger" WHERE "teamId" = :team_id ORDER BY "createdAt", id`,
});

/** The team's triggers, oldest first. */
export async function listTeamTriggers(db: Queryable, teamId: string): Promise<TriggerRecord[]> {
  return (await db.query(LIST_SQL.bind({ team_id: teamId }))).rows.map((row) => recordSchema.parse(row));
}

const GET_SQL = namedQuery({
  name: 'looplane_trigger_get_v1',
  params: { team_id: param.text, trigger_id: param.text },
  text: `SELECT ${COLUMNS} FROM "Trigger" WHERE id = :trigger_id AND "teamId" = :team_id`,
});

/** One trigger of the team; null when there is none (or it is another team's). */
export async function teamTrigger(db: Queryable, teamId: string, triggerId: string): Promise<TriggerRecord | null> {
  const row = (await db.query(GET_SQL.bind({ team_id: teamId, trigger_id: triggerId }))).rows[0];
  return row === undefined ? null : recordSchema.parse(row);
}

const FOR_DELIVERY_SQL = namedQuery({
  name: 'looplane_trigger_for_delivery_v1',
  params: { trigger_id: param.text },
  text: `SELECT ${COLUMNS}, "secretCiphertext" FROM "Trigger" WHERE id = :trigger_id`,
});

/** A trigger by id alone, with its sealed secret: the public delivery URL names nothing else. */
export async function triggerForDelivery(db: Queryable, triggerId: string): Promise<TriggerForDelivery | null> {
  const row = (await db.query(FOR_DELIVERY_SQL.bind({ trigger_id: triggerId }))).rows[0];
  return row === undefined ? null : deliverySchema.parse(row);
}

/** The fields an update may change; null leaves a field as it is (`workspace` is cleared with `clearWorkspace`). */
export interface TriggerChanges {
  name: string | null;
  goalTemplate: string | null;
  /** JSON text */
  budget: string | null;
  /** JSON text */
  workspace: string | null;
  clearWorkspace: boolean;
  rateLimitPerMinute: number | null;
  enabled: boolean | null;
  secretCiphertext: string | null;
}

const UPDATE_SQL = namedQuery({
  name: 'looplane_trigger_update_v1',
  params: {
    team_id: param.text,
    trigger_id: param.text,
    name: param.nullableText,
    goal_template: param.nullableText,
    budget: param.nullableJsonb,
    workspace: param.nullableJsonb,
    clear_workspace: param.boolean,
    rate_limit: param.nullableText,
    enabled: param.nullableText,
    secret_ciphertext: param.nullableText,
  },
  text: `
UPDATE "Trigger" SET
  name = COALESCE(:name, name),
  "goalTemplate" = COALESCE(:goal_template, "goalTemplate"),
  budget = COALESCE(:budget, budget),
  workspace = CASE WHEN :clear_workspace THEN NULL ELSE COALESCE(:workspace, workspace) END,
  "rateLimitPerMinute" = COALESCE(:rate_limit::int, "rateLimitPerMinute"),
  enabled = COALESCE(:enabled::boolean, enabled),
  "secretCiphertext" = COALESCE(:secret_ciphertext, "secretCiphertext"),
  "updatedAt" = now()
WHERE id = :trigger_id AND "teamId" = :team_id
RETURNING ${COLUMNS}`,
});

/**
 * Changes a trigger of the team; null when there is none. A name taken by another trigger of the
 * team fails with Postgres' unique violation (23505), which the caller maps.
 */
export async function updateTeamTrigger(db: Queryable, teamId: string, triggerId: string, c: TriggerChanges): Promise<TriggerRecord | null> {
  const query = UPDATE_SQL.bind({
    team_id: teamId,
    trigger_id: triggerId,
    name: c.name,
    goal_template: c.goalTemplate,
    budget: c.budget,
    workspace: c.workspace,
    clear_workspace: c.clearWorkspace,
    rate_limit: c.rateLimitPerMinute === null ? null : String(c.rateLimitPerMinute),
    enabled: c.enabled === null ? null : String(c.enabled),
    secret_ciphertext: c.secretCiphertext,
  });
  const row = (await db.query(query)).rows[0];
  return row === undefined ? null : recordSchema.parse(row);
}

const DELETE_SQL = namedQuery({
  name: 'looplane_trigger_delete_v1',
  params: { team_id: param.text, trigger_id: param.text },
  text: `DELETE FROM "Trigger" WHERE id = :trigger_id AND "teamId" = :team_id RETURNING ${COLUMNS}`,
});

/** Deletes a trigger of the team with its deliveries and receipts (runs it started keep running); null when there is none. */
export async function deleteTeamTrigger(db: Queryable, teamId: string, triggerId: string): Promise<TriggerRecord | null> {
  const row = (await db.query(DELETE_SQL.bind({ team_id: teamId, trigger_id: triggerId }))).rows[0];
  return row === undefined ? null : recordSchema.parse(row);
}

const TARGET_SQL = namedQuery({
  name: 'looplane_trigger_target_exists_v1',
  params: { team_id: param.text, agent_id: param.nullableText, graph_id: param.nullableText, run_id: param.nullableText },
  text: `
SELECT
  EXISTS (SELECT 1 FROM "AgentTemplate" WHERE id = :agent_id AND "teamId" = :team_id AND "archivedAt" IS NULL) AS agent,
  EXISTS (SELECT 1 FROM "SwarmGraph" WHERE id = :graph_id AND "teamId" = :team_id AND "archivedAt" IS NULL) AS graph,
  EXISTS (SELECT 1 FROM "Run" WHERE id = :run_id AND "teamId" = :team_id) AS run`,
});
const targetSchema = z.object({ agent: z.boolean(), graph: z.boolean(), run: z.boolean() });

/** Whether the named agent, graph and run are the team's (and not archived); an id not given is false. */
export async function triggerTargetsExist(
  db: Queryable,
  teamId: string,
  ids: { agentId: string | null; graphId: string | null; runId: string | null },
): Promise<{ agent: boolean; graph: boolean; run: boolean }> {
  const result = await db.query(TARGET_SQL.bind({ team_id: teamId, agent_id: ids.agentId, graph_id: ids.graphId, run_id: ids.runId }));
  return targetSchema.parse(result.rows[0]);
}
