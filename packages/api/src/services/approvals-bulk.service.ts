import { appendAuditBatch, decidePendingApprovals, type AuditEntry } from '@looplane/db';
import type { DecideManyInput } from '../routers/approvals.schema';
import type { PrincipalActor } from '../trpc';
import { decideBlocker, pendingCount, type Viewer } from './approvals-query.service';
import { breakerCancelAudit, markBreakerCancel } from './approvals.service';
import type { RunDeps } from './runs.service';

type BulkResult = { approvalId: string; ok: boolean; status?: string; error?: string };

/**
 * `approvals.decideMany`: every approval the approver may decide is decided in ONE transaction —
 * one read, one conditional UPDATE (only rows still `pending`: a concurrent decision or the
 * sweeper's expiry wins cleanly), one batch of audit rows — and their sessions are woken in one
 * Redis round trip. One approval refused (not found, already decided, not the approver's to
 * decide) does not stop the others; the result says, per id, what happened.
 */
export async function decideManyApprovals(deps: RunDeps, actor: PrincipalActor, viewer: Viewer, teamId: string, input: DecideManyInput, ip: string | null) {
  const ids = [...new Set(input.approvalIds)];
  const status = input.decision === 'approve' ? 'approved' : 'rejected';
  const refused = new Map<string, string>();
  const cancels: { runId: string; sessionId: string }[] = [];
  const decided = await deps.db.$transaction(async (tx) => {
    const rows = await tx.approval.findMany({
      where: { id: { in: ids }, teamId },
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
      },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    const candidates = ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) {
        refused.set(id, 'No such approval in this team');
        return [];
      }
      if (row.status !== 'pending') {
        refused.set(id, `The approval is already ${row.status}`);
        return [];
      }
      const blocker = decideBlocker(row, viewer);
      if (blocker) {
        refused.set(id, `You cannot decide this approval: ${blocker}`);
        return [];
      }
      return [row];
    });
    if (candidates.length === 0) return [];
    // Only rows still pending are decided: a concurrent decision or the sweeper's expiry wins cleanly.
    const updated = await decidePendingApprovals(tx, {
      status,
      decidedById: actor.userId,
      comment: input.comment || null,
      ids: candidates.map((row) => row.id),
    });
    const won = new Set(updated);
    const rowsDecided = candidates.filter((row) => {
      if (!won.has(row.id)) refused.set(row.id, 'The approval was decided by someone else (or expired) a moment ago');
      return won.has(row.id);
    });
    // Rejecting a breaker cancels its run, as one decision does. The Run rows are marked before
    // the audit batch: the team's audit lock comes last, as everywhere.
    cancels.length = 0;
    const cancelEntries: AuditEntry[] = [];
    if (status === 'rejected') {
      for (const row of rowsDecided.filter((r) => r.kind === 'breaker')) {
        const marked = await markBreakerCancel(tx, actor, teamId, row.runId);
        if (!marked) continue;
        cancelEntries.push(breakerCancelAudit(actor, teamId, ip, row.runId, row.id, marked.status));
        if (marked.mainSessionId) cancels.push({ runId: row.runId, sessionId: marked.mainSessionId });
      }
    }
    const entries: AuditEntry[] = rowsDecided.map((row) => ({
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
        bulk: true,
        ...(input.comment ? { comment: input.comment } : {}),
      },
    }));
    await appendAuditBatch(tx, [...entries, ...cancelEntries]);
    return rowsDecided;
  });
  for (const cancel of cancels) await deps.dispatch.cancel({ runId: cancel.runId });
  const jobs = [...decided, ...cancels].map((row) => ({ runId: row.runId, sessionId: row.sessionId, reason: 'resume' as const }));
  if (deps.dispatch.enqueueSessions) await deps.dispatch.enqueueSessions(jobs);
  else for (const job of jobs) await deps.dispatch.enqueueSession(job);
  await deps.dispatch.teamActivity(teamId, { kind: 'approvals.count', pending: await pendingCount(deps.db, teamId) });
  const results: BulkResult[] = ids.map((approvalId) => {
    const error = refused.get(approvalId);
    return error === undefined ? { approvalId, ok: true, status } : { approvalId, ok: false, error };
  });
  return { results, decided: decided.length };
}
