import { setTimeout as sleep } from 'node:timers/promises';
import {
  claimTriggerReceipt,
  completeTriggerReceipt,
  mailboxForDelivery,
  recordAudit,
  releaseTriggerReceipt,
  triggerReceipt,
  type AuditActor,
  type TriggerForDelivery,
  type TriggerReceiptRecord,
} from '@looplane/db';
import { AppError, roleAtLeast } from '@looplane/shared';
import { describeZodError } from '../errors';
import { createRunInput, sendMessageInput } from '../routers/runs.schema';
import type { PrincipalActor } from '../trpc';
import { createGraphRun } from '../services/graph-run';
import { sendRunMessage } from '../services/run-control.service';
import { createRun, type RunTriggerDelivery } from '../services/run-create';
import { retryAfterOf } from '../services/run-start-limits';
import type { RunDeps } from '../services/runs.service';
import { queryableOf } from '@looplane/db';
import { renderGoal, renderMessage } from '../services/trigger-template';

/** The audit actor of what a delivery does: the trigger, on behalf of its creator. */
const TRIGGER_ACTOR: AuditActor = { type: 'system', name: 'trigger' };

/** How long a repeat of a webhook-id waits for the first delivery of it to start its run. */
const REPEAT_WAIT_MS = 15_000;
const REPEAT_POLL_MS = 20;

/** How a delivery was answered: what the sender gets and what the trigger's page lists. */
export interface DeliveryOutcome {
  status: number;
  accepted: boolean;
  /** Why it was refused (or that it repeated an earlier delivery); null for a plain acceptance. */
  reason: string | null;
  runId: string | null;
  messageId: string | null;
  retryAfterSeconds: number | null;
  /** A 500's error, for the server's log (never shown to the sender). */
  internal?: unknown;
}

/** A refusal, answered with `status` and listed with `reason`. */
export function refused(status: number, reason: string, retryAfterSeconds: number | null = null): DeliveryOutcome {
  return { status, accepted: false, reason, runId: null, messageId: null, retryAfterSeconds };
}

/** The answer to a repeated webhook-id: the run (and message) of its first delivery, nothing new. */
export function repeatOf(receipt: TriggerReceiptRecord): DeliveryOutcome {
  return {
    status: 202,
    accepted: true,
    reason: 'a repeat of an accepted webhook-id: answered with its run, nothing new was done',
    runId: receipt.runId,
    messageId: receipt.messageId,
    retryAfterSeconds: null,
  };
}

/**
 * What a refused action becomes: the sender cannot fix the trigger's own configuration (its agent
 * archived, its creator gone), so those are 409 rather than the 404 of an unknown trigger; a goal
 * that does not fit is 422; the team's run-start limits are 429 with their wait.
 */
function outcomeOfError(error: unknown): DeliveryOutcome {
  if (!(error instanceof AppError) || error.code === 'INTERNAL' || error.code === 'UNAUTHORIZED') {
    return { ...refused(500, 'the delivery could not be handled (an internal error; see the server log)'), internal: error };
  }
  switch (error.code) {
    case 'TOO_MANY_REQUESTS':
      return refused(429, error.message, retryAfterOf(error) ?? 1);
    case 'BAD_REQUEST':
      return refused(422, error.message);
    case 'FORBIDDEN':
      return refused(403, error.message);
    default:
      return refused(409, `the trigger cannot act: ${error.message}`);
  }
}

/**
 * The person a delivery acts as: the trigger's creator, while they may still start runs in the
 * team (operator or above). A creator who left or lost the role stops the trigger, rather than
 * the trigger going on acting in the name of someone who could not.
 */
async function creatorOf(deps: RunDeps, trigger: TriggerForDelivery): Promise<PrincipalActor> {
  const userId = trigger.createdById;
  const membership = userId
    ? await deps.db.membership.findUnique({ where: { teamId_userId: { teamId: trigger.teamId, userId } }, select: { role: true } })
    : null;
  if (!userId || !membership || !roleAtLeast(membership.role, 'operator')) {
    throw new AppError('PRECONDITION_FAILED', 'its creator may no longer start runs in the team; an admin must create the trigger again');
  }
  return { type: 'user', userId };
}

/** Starts the trigger's run (agent or graph) through runs.create's services, the goal rendered from the payload. */
async function startRun(deps: RunDeps, trigger: TriggerForDelivery, actor: PrincipalActor, payload: unknown, ip: string | null): Promise<{ runId: string }> {
  const input = createRunInput.safeParse({
    ...(trigger.agentId ? { agentId: trigger.agentId } : {}),
    ...(trigger.graphId ? { graphId: trigger.graphId } : {}),
    goal: renderGoal(trigger.goalTemplate ?? '', payload),
    budget: trigger.budget,
    ...(trigger.workspace ? { workspace: trigger.workspace } : {}),
  });
  if (!input.success) throw new AppError('BAD_REQUEST', `The goal rendered from this payload is not a valid run: ${describeZodError(input.error)}`);
  const origin: RunTriggerDelivery = { triggerId: trigger.id, auditActor: TRIGGER_ACTOR };
  return input.data.graphId
    ? createGraphRun(deps, actor, trigger.teamId, input.data, ip, origin)
    : createRun(deps, actor, trigger.teamId, input.data, ip, origin);
}

/**
 * Sends the delivery to `runId` (the trigger's run, or a persistent agent's mailbox run) through
 * runs.sendMessage's service, and audits it as the trigger's.
 */
async function messageRun(deps: RunDeps, trigger: TriggerForDelivery, actor: PrincipalActor, runId: string, payload: unknown, ip: string | null) {
  const text = sendMessageInput.shape.text.safeParse(trigger.goalTemplate ? renderGoal(trigger.goalTemplate, payload) : renderMessage(trigger.name, payload));
  if (!text.success) throw new AppError('BAD_REQUEST', `The message rendered from this payload is not a valid message: ${describeZodError(text.error)}`);
  const sent = await sendRunMessage(deps, actor, trigger.teamId, runId, text.data, ip);
  await recordAudit(deps.db, {
    teamId: trigger.teamId,
    actor: TRIGGER_ACTOR,
    ip,
    action: 'trigger.message_delivered',
    targetType: 'trigger',
    targetId: trigger.id,
    data: { name: trigger.name, runId, messageId: sent.messageId, onBehalfOf: actor.userId },
  });
  return { runId, messageId: sent.messageId };
}

/** Does what the trigger does for one authenticated delivery; throws what the run services throw. */
async function act(deps: RunDeps, trigger: TriggerForDelivery, payload: unknown, ip: string | null): Promise<{ runId: string; messageId: string | null }> {
  const actor = await creatorOf(deps, trigger);
  if (trigger.target === 'message_run') {
    if (!trigger.runId) throw new AppError('INTERNAL', `trigger ${trigger.id} sends messages but names no run`);
    return messageRun(deps, trigger, actor, trigger.runId, payload, ip);
  }
  // A persistent agent keeps one run: a delivery is the next message to it while it lives.
  const mailbox = await mailboxForDelivery(queryableOf(deps.db), trigger.teamId, trigger.agentId);
  if (mailbox) return messageRun(deps, trigger, actor, mailbox, payload, ip);
  const { runId } = await startRun(deps, trigger, actor, payload, ip);
  return { runId, messageId: null };
}

/**
 * Waits for the delivery that holds a webhook-id's receipt to finish: its run (a completed
 * receipt), or null once it gave the claim back (its run could not start) or the wait ran out.
 */
async function settledReceipt(deps: RunDeps, triggerId: string, webhookId: string): Promise<TriggerReceiptRecord | 'released' | 'timeout'> {
  const deadline = Date.now() + REPEAT_WAIT_MS;
  for (;;) {
    const receipt = await triggerReceipt(queryableOf(deps.db), triggerId, webhookId);
    if (!receipt) return 'released';
    if (receipt.runId !== '') return receipt;
    if (Date.now() > deadline) return 'timeout';
    await sleep(REPEAT_POLL_MS);
  }
}

/**
 * Acts on an authenticated delivery once per webhook-id: the delivery that claims the id's receipt
 * starts the run (or sends the message) and completes the receipt with it; a concurrent one with
 * the same id waits for that and answers the same run. A claim whose action fails is given back,
 * so the sender's retry may try again. Without a webhook-id every delivery acts.
 */
export async function deliverOnce(
  deps: RunDeps,
  trigger: TriggerForDelivery,
  webhookId: string | null,
  payload: unknown,
  ip: string | null,
): Promise<DeliveryOutcome> {
  const q = queryableOf(deps.db);
  if (webhookId) {
    for (;;) {
      if (await claimTriggerReceipt(q, trigger.id, webhookId)) break;
      const settled = await settledReceipt(deps, trigger.id, webhookId);
      if (settled === 'timeout') return refused(409, 'a delivery with this webhook-id is still being handled; retry it later', 5);
      if (settled !== 'released') return repeatOf(settled);
    }
  }
  try {
    const done = await act(deps, trigger, payload, ip);
    if (webhookId) await completeTriggerReceipt(q, trigger.id, webhookId, done.runId, done.messageId);
    return { status: 202, accepted: true, reason: null, runId: done.runId, messageId: done.messageId, retryAfterSeconds: null };
  } catch (error) {
    if (webhookId) await releaseTriggerReceipt(q, trigger.id, webhookId);
    return outcomeOfError(error);
  }
}
