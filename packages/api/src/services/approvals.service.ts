import { appendAudit, TERMINAL_RUN_STATUSES, type AuditEntry, type Prisma, type Tx } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { z } from 'zod';
import type { PrincipalActor } from '../trpc';
import type { DecideInput } from '../routers/approvals.schema';
import { decideEditedCall } from './approvals-edited-call';
import { decideBlocker, pendingCount, type Viewer } from './approvals-query.service';
import type { RunDeps } from './runs.service';

/** The tool catalogue entry of the session's config snapshot, as much of it as validation needs. */
const catalogueSchema = z.object({ tools: z.array(z.object({ name: z.string(), parameters: z.record(z.string(), z.unknown()).optional() })).default([]) });

/**
 * Checks edited arguments against the tool's own parameter schema (JSON Schema in the run's
 * config snapshot), so an approver cannot hand the tool arguments it would not accept from the model.
 */
async function checkEditedArgs(tx: Tx, sessionId: string, tool: string | null, args: Record<string, unknown>): Promise<void> {
  const session = await tx.session.findUniqueOrThrow({ where: { id: sessionId }, select: { config: true } });
  const catalogue = catalogueSchema.safeParse(session.config);
  const parameters = catalogue.success ? catalogue.data.tools.find((t) => t.name === tool)?.parameters : undefined;
  if (!parameters) return;
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(parameters as never);
  } catch {
    // A schema zod cannot read is not the approver's problem: the tool validates on its own.
    return;
  }
  const parsed = schema.safeParse(args);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new AppError('BAD_REQUEST', `editedArgs do not fit the ${tool} tool's parameters: ${where}${issue?.message ?? 'invalid'}`);
}

/** Decides one approval inside `tx`; returns what to wake up. Throws a 4xx AppError for a decision that may not be made. */
async function decideIn(tx: Tx, actor: PrincipalActor, viewer: Viewer, teamId: string, input: DecideInput, ip: string | null) {
  const row = await tx.approval.findFirst({
    where: { id: input.approvalId, teamId },
    select: {
      id: true,
      kind: true,
      status: true,
      requiredRole: true,
      fourEyes: true,
      requestedById: true,
      instructedByIds: true,
      runId: true,
      sessionId: true,
      tool: true,
      toolCallId: true,
      args: true,
    },
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such approval in this team');
  if (row.status !== 'pending') throw new AppError('CONFLICT', `The approval is already ${row.status}`);
  const blocker = decideBlocker(row, viewer);
  if (blocker) throw new AppError('FORBIDDEN', `You cannot decide this approval: ${blocker}`);
  if (input.editedArgs && row.kind === 'effect') {
    throw new AppError('BAD_REQUEST', 'editedArgs: this call already ran; its held result is kept or dropped as it is, so its arguments cannot be edited');
  }
  if (input.editedArgs && row.kind === 'breaker') {
    throw new AppError(
      'BAD_REQUEST',
      'editedArgs: a breaker approval resumes or cancels the run; the call goes on as the policy allowed it, so its arguments cannot be edited',
    );
  }
  if (input.editedArgs) {
    await checkEditedArgs(tx, row.sessionId, row.tool, input.editedArgs);
    // The edited call is decided by the policy on its own; a refusal keeps only its audit row.
    const refused = await decideEditedCall(tx, { teamId, actor, viewer, ip }, row, input.editedArgs);
    if (refused) return { refused };
  }
  const status: 'approved' | 'rejected' = input.decision === 'approve' ? 'approved' : 'rejected';
  const decidedAt = new Date();
  // Conditional on `pending`: a concurrent decision or the sweeper's expiry wins or loses cleanly.
  const { count } = await tx.approval.updateMany({
    where: { id: row.id, status: 'pending' },
    data: {
      status,
      decidedById: actor.userId,
      decidedAt,
      comment: input.comment || null,
      ...(input.editedArgs ? { editedArgs: input.editedArgs as Prisma.InputJsonValue } : {}),
    },
  });
  if (count === 0) throw new AppError('CONFLICT', 'The approval was decided by someone else (or expired) a moment ago');
  // Rejecting a breaker cancels the run (every session of a graph run), recorded as a cancel request by the decider.
  // The Run row is marked before any audit append: the team's audit lock comes last, as everywhere.
  const cancel = status === 'rejected' && row.kind === 'breaker' ? await markBreakerCancel(tx, actor, teamId, row.runId) : null;
  await appendAudit(tx, {
    teamId,
    actor,
    ip,
    action: `approval.${status}`,
    targetType: 'approval',
    targetId: row.id,
    data: {
      runId: row.runId,
      sessionId: row.sessionId,
      tool: row.tool,
      callId: row.toolCallId,
      ...(input.comment ? { comment: input.comment } : {}),
      ...(input.editedArgs ? { args: row.args, editedArgs: input.editedArgs } : {}),
    },
  });
  if (cancel) await appendAudit(tx, breakerCancelAudit(actor, teamId, ip, row.runId, row.id, cancel.status));
  return { id: row.id, status, decidedAt, runId: row.runId, sessionId: row.sessionId, cancelRun: cancel?.mainSessionId ?? null };
}

/**
 * Marks the run to be cancelled (compare-and-set, as `runs.cancel` does) after a rejected breaker;
 * returns its main session to wake and its status, or null when already asked or finished. The
 * caller appends {@link breakerCancelAudit} after its own rows, so the audit lock is taken last.
 */
export async function markBreakerCancel(
  tx: Tx,
  actor: PrincipalActor,
  teamId: string,
  runId: string,
): Promise<{ mainSessionId: string | null; status: string } | null> {
  const { count } = await tx.run.updateMany({
    where: { id: runId, teamId, cancelRequestedAt: null, status: { notIn: [...TERMINAL_RUN_STATUSES] } },
    data: { cancelRequestedAt: new Date(), cancelledById: actor.userId },
  });
  if (count === 0) return null;
  return tx.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, status: true } });
}

/** The `run.cancel_requested` audit row of a rejected breaker. */
export function breakerCancelAudit(actor: PrincipalActor, teamId: string, ip: string | null, runId: string, approvalId: string, status: string): AuditEntry {
  return { teamId, actor, ip, action: 'run.cancel_requested', targetType: 'run', targetId: runId, data: { status, approvalId, reason: 'breaker rejected' } };
}

/**
 * `approvals.decide`: records the decision on the row (with its audit row, in one transaction),
 * then wakes the waiting session; the worker holding it appends `approval.decided` and goes on.
 */
export async function decideApproval(deps: RunDeps, actor: PrincipalActor, viewer: Viewer, teamId: string, input: DecideInput, ip: string | null) {
  const decided = await deps.db.$transaction((tx) => decideIn(tx, actor, viewer, teamId, input, ip));
  if ('refused' in decided) throw decided.refused;
  await deps.dispatch.enqueueSession({ runId: decided.runId, sessionId: decided.sessionId, reason: 'resume' });
  if (decided.cancelRun) {
    await deps.dispatch.cancel({ runId: decided.runId });
    await deps.dispatch.enqueueSession({ runId: decided.runId, sessionId: decided.cancelRun, reason: 'cancel' });
  }
  await publishCount(deps, teamId);
  return { approvalId: decided.id, status: decided.status, decidedAt: decided.decidedAt, runId: decided.runId };
}

async function publishCount(deps: RunDeps, teamId: string): Promise<void> {
  await deps.dispatch.teamActivity(teamId, { kind: 'approvals.count', pending: await pendingCount(deps.db, teamId) });
}
