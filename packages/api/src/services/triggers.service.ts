import { randomBytes } from 'node:crypto';
import {
  appendAudit,
  deleteTeamTrigger,
  insertTrigger,
  listTeamTriggers,
  listTriggerDeliveries,
  teamTrigger,
  triggerTargetsExist,
  updateTeamTrigger,
  type AuditEntry,
  type Db,
  type SecretBox,
  type TriggerAuthKind,
  type TriggerChanges,
  type TriggerDeliveryRecord,
  type TriggerRecord,
} from '@looplane/db';
import type { WorkspaceSource } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { generateSigningSecret } from '@looplane/webhooks';
import type { PrincipalActor } from '../trpc';
import type { RunBudget } from '../routers/runs.schema';
import type { CreateTriggerInput, ListTriggerDeliveriesInput, UpdateTriggerInput } from '../routers/triggers.schema';
import { newId } from '@looplane/db';
import { checkWorkspaceDefault } from './run-workspace';
import { queryableOf } from '@looplane/db';

/**
 * A team's inbound triggers: the API side (create, read, edit, rotate the secret, delete, list
 * deliveries). Each change commits with its audit row; the secret is sealed at rest and shown in
 * the answers of create and rotateSecret only. Deliveries are handled in hooks/trigger-hook.ts.
 */

/** Where a trigger takes deliveries, below the server's public URL. */
const hookPath = (triggerId: string) => `/api/hooks/${triggerId}`;

/** A bearer trigger's secret: a prefix secret scanners can match, then 256 random bits. */
const BEARER_PREFIX = 'lltr_';

/** What a trigger does, as the API shows it (the shape `target` takes at create). */
type TriggerTargetView =
  | { type: 'start_run'; agentId: string | null; graphId: string | null; goalTemplate: string; budget: Partial<RunBudget>; workspace: WorkspaceSource | null }
  | { type: 'message_run'; runId: string; messageTemplate: string | null };

/** A trigger as the API shows it: never its secret. */
export interface TriggerView {
  id: string;
  teamId: string;
  name: string;
  /** POST here, below the server's public URL. */
  path: string;
  target: TriggerTargetView;
  auth: TriggerAuthKind;
  rateLimitPerMinute: number;
  enabled: boolean;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The stored row as the API shows it; a message_run trigger keeps its message template in `goalTemplate`. */
function presentTrigger(t: TriggerRecord): TriggerView {
  // Budget and workspace are stored only from input that passed runs.create's own schemas.
  const target: TriggerTargetView =
    t.target === 'start_run'
      ? {
          type: 'start_run',
          agentId: t.agentId,
          graphId: t.graphId,
          goalTemplate: t.goalTemplate ?? '',
          budget: t.budget as Partial<RunBudget>,
          workspace: (t.workspace ?? null) as WorkspaceSource | null,
        }
      : { type: 'message_run', runId: t.runId ?? '', messageTemplate: t.goalTemplate };
  return {
    id: t.id,
    teamId: t.teamId,
    name: t.name,
    path: hookPath(t.id),
    target,
    auth: t.auth,
    rateLimitPerMinute: t.rateLimitPerMinute,
    enabled: t.enabled,
    createdById: t.createdById,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** A new secret of the trigger's kind and its sealed form; refused when the server has no key to seal it with. */
function newSecret(box: SecretBox | null, auth: TriggerAuthKind): { secret: string; secretCiphertext: string } {
  if (!box) throw new AppError('PRECONDITION_FAILED', 'This server has no LOOPLANE_ENCRYPTION_KEY, so it cannot store trigger secrets');
  const secret = auth === 'standard_webhooks' ? generateSigningSecret() : `${BEARER_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { secret, secretCiphertext: box.seal(secret) };
}

const isUniqueViolation = (error: unknown) => error instanceof Error && /23505|unique constraint/i.test(error.message);

function audit(actor: PrincipalActor, ip: string | null, action: string, t: TriggerRecord, data: Record<string, unknown> = {}): AuditEntry {
  return { teamId: t.teamId, actor, ip, action, targetType: 'trigger', targetId: t.id, data: { name: t.name, ...data } };
}

/** The trigger of the team; NOT_FOUND otherwise (also for another team's id). */
async function ownTrigger(db: Db, teamId: string, triggerId: string): Promise<TriggerRecord> {
  const trigger = await teamTrigger(queryableOf(db), teamId, triggerId);
  if (!trigger) throw new AppError('NOT_FOUND', 'No such trigger in this team');
  return trigger;
}

/** The agent, graph or run the target names is the team's (and not archived); a workspace passes a run's checks. */
async function checkTarget(db: Db, teamId: string, target: CreateTriggerInput['target']): Promise<void> {
  const ids = {
    agentId: target.type === 'start_run' ? (target.agentId ?? null) : null,
    graphId: target.type === 'start_run' ? (target.graphId ?? null) : null,
    runId: target.type === 'message_run' ? target.runId : null,
  };
  const found = await triggerTargetsExist(queryableOf(db), teamId, ids);
  if (ids.agentId && !found.agent) throw new AppError('NOT_FOUND', 'No such agent in this team');
  if (ids.graphId && !found.graph) throw new AppError('NOT_FOUND', 'No such graph in this team');
  if (ids.runId && !found.run) throw new AppError('NOT_FOUND', 'No such run in this team');
  if (target.type === 'start_run' && target.workspace) await checkWorkspaceDefault(db, teamId, target.workspace as WorkspaceSource);
}

/** Creates a trigger and its secret (`whsec_…` for Standard Webhooks, `lltr_…` for bearer); the secret is in this answer only. */
export async function createTrigger(
  db: Db,
  box: SecretBox | null,
  actor: PrincipalActor,
  teamId: string,
  input: CreateTriggerInput,
  ip: string | null,
): Promise<{ trigger: TriggerView; secret: string }> {
  const { secret, secretCiphertext } = newSecret(box, input.auth);
  const target = input.target;
  await checkTarget(db, teamId, target);
  const start = target.type === 'start_run' ? target : null;
  return db.$transaction(async (tx) => {
    const created = await insertTrigger(queryableOf(tx), {
      id: newId(),
      teamId,
      name: input.name,
      target: target.type,
      agentId: start?.agentId ?? null,
      graphId: start?.graphId ?? null,
      goalTemplate: start ? start.goalTemplate : target.type === 'message_run' ? (target.messageTemplate ?? null) : null,
      budget: JSON.stringify(start?.budget ?? {}),
      workspace: start?.workspace ? JSON.stringify(start.workspace) : null,
      runId: target.type === 'message_run' ? target.runId : null,
      auth: input.auth,
      secretCiphertext,
      rateLimitPerMinute: input.rateLimitPerMinute,
      enabled: input.enabled,
      createdById: actor.userId,
    });
    if (!created) throw new AppError('CONFLICT', `The team already has a trigger named ${input.name}`);
    await appendAudit(
      tx,
      audit(actor, ip, 'trigger.created', created, {
        target: created.target,
        agentId: created.agentId,
        graphId: created.graphId,
        runId: created.runId,
        auth: created.auth,
        rateLimitPerMinute: created.rateLimitPerMinute,
        enabled: created.enabled,
      }),
    );
    return { trigger: presentTrigger(created), secret };
  });
}

/** The team's triggers, oldest first. */
export async function listTriggers(db: Db, teamId: string): Promise<TriggerView[]> {
  return (await listTeamTriggers(queryableOf(db), teamId)).map(presentTrigger);
}

/** One trigger of the team. */
export async function getTrigger(db: Db, teamId: string, triggerId: string): Promise<TriggerView> {
  return presentTrigger(await ownTrigger(db, teamId, triggerId));
}

/** The changes an update asks for, checked against the trigger's kind (templates, budget and workspace belong to one kind each). */
function changesFor(current: TriggerRecord, input: UpdateTriggerInput): { changes: TriggerChanges; changed: string[] } {
  // The procedure's input also carries the team (teamProcedure's own field): not a change.
  const { triggerId: _id, teamId: _team, ...given } = input as UpdateTriggerInput & { teamId?: string };
  const changed = Object.entries(given)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  if (changed.length === 0) throw new AppError('BAD_REQUEST', 'Nothing to change: give at least one field');
  const wrongKind =
    current.target === 'start_run'
      ? changed.find((key) => key === 'messageTemplate')
      : changed.find((key) => ['goalTemplate', 'budget', 'workspace'].includes(key));
  if (wrongKind) {
    throw new AppError(
      'BAD_REQUEST',
      `${wrongKind}: this trigger ${current.target === 'start_run' ? 'starts runs' : 'sends messages to a run'}; it has no ${wrongKind}`,
    );
  }
  const changes: TriggerChanges = {
    name: given.name ?? null,
    goalTemplate: given.goalTemplate ?? given.messageTemplate ?? null,
    budget: given.budget ? JSON.stringify(given.budget) : null,
    workspace: given.workspace ? JSON.stringify(given.workspace) : null,
    clearWorkspace: given.workspace === null,
    rateLimitPerMinute: given.rateLimitPerMinute ?? null,
    enabled: given.enabled ?? null,
    secretCiphertext: null,
  };
  return { changes, changed };
}

/** Changes the given fields of a trigger (its secret stays; see {@link rotateTriggerSecret}). */
export async function updateTrigger(db: Db, actor: PrincipalActor, teamId: string, input: UpdateTriggerInput, ip: string | null): Promise<TriggerView> {
  const current = await ownTrigger(db, teamId, input.triggerId);
  const { changes, changed } = changesFor(current, input);
  if (input.workspace) await checkWorkspaceDefault(db, teamId, input.workspace as WorkspaceSource);
  try {
    return await db.$transaction(async (tx) => {
      const updated = await updateTeamTrigger(queryableOf(tx), teamId, input.triggerId, changes);
      if (!updated) throw new AppError('NOT_FOUND', 'No such trigger in this team');
      await appendAudit(tx, audit(actor, ip, 'trigger.updated', updated, { changed, ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) }));
      return presentTrigger(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', `The team already has a trigger named ${input.name}`);
    throw error;
  }
}

/** Replaces a trigger's secret; the new one is in this answer only, and the old one stops working at once. */
export async function rotateTriggerSecret(
  db: Db,
  box: SecretBox | null,
  actor: PrincipalActor,
  teamId: string,
  triggerId: string,
  ip: string | null,
): Promise<{ trigger: TriggerView; secret: string }> {
  const current = await ownTrigger(db, teamId, triggerId);
  const { secret, secretCiphertext } = newSecret(box, current.auth);
  return db.$transaction(async (tx) => {
    const changes: TriggerChanges = {
      name: null,
      goalTemplate: null,
      budget: null,
      workspace: null,
      clearWorkspace: false,
      rateLimitPerMinute: null,
      enabled: null,
      secretCiphertext,
    };
    const updated = await updateTeamTrigger(queryableOf(tx), teamId, triggerId, changes);
    if (!updated) throw new AppError('NOT_FOUND', 'No such trigger in this team');
    await appendAudit(tx, audit(actor, ip, 'trigger.secret_rotated', updated, { auth: updated.auth }));
    return { trigger: presentTrigger(updated), secret };
  });
}

/** Deletes a trigger with its deliveries and receipts; runs it started stay. */
export async function deleteTrigger(
  db: Db,
  actor: PrincipalActor,
  teamId: string,
  triggerId: string,
  ip: string | null,
): Promise<{ id: string; deleted: true }> {
  return db.$transaction(async (tx) => {
    const deleted = await deleteTeamTrigger(queryableOf(tx), teamId, triggerId);
    if (!deleted) throw new AppError('NOT_FOUND', 'No such trigger in this team');
    await appendAudit(tx, audit(actor, ip, 'trigger.deleted', deleted, { target: deleted.target }));
    return { id: triggerId, deleted: true as const };
  });
}

/** One delivery as the API lists it. */
export type TriggerDeliveryView = Omit<TriggerDeliveryRecord, 'triggerId'>;

/** A trigger's deliveries, accepted and refused, newest first, a page at a time. */
export async function listDeliveriesOfTrigger(
  db: Db,
  teamId: string,
  input: ListTriggerDeliveriesInput,
): Promise<{ items: TriggerDeliveryView[]; nextCursor: string | null }> {
  await ownTrigger(db, teamId, input.triggerId);
  if (input.cursor) {
    const known = await db.triggerDelivery.findFirst({ where: { id: input.cursor, triggerId: input.triggerId }, select: { id: true } });
    if (!known) throw new AppError('BAD_REQUEST', 'cursor: not a delivery of this trigger');
  }
  const rows = await listTriggerDeliveries(queryableOf(db), input.triggerId, input.cursor ?? null, input.limit + 1);
  const page = rows.slice(0, input.limit).map(({ triggerId: _t, ...row }) => row);
  return { items: page, nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}
