import { appendAudit, TERMINAL_RUN_STATUSES, type Db } from '@looplane/db';
import type { Clock } from '@looplane/engine';
import type { SessionJob } from '@looplane/queue';
import type { Logger } from 'pino';
import type { ApprovalGate } from './approval-gate';
import { Periodic } from './periodic';

export interface ApprovalSweeperOptions {
  db: Db;
  clock: Clock;
  gate: ApprovalGate;
  enqueue: (job: SessionJob) => Promise<void>;
  intervalMs: number;
  /** Rows per kind per pass (default 200). */
  batch?: number;
  logger: Logger;
}

export interface SweepResult {
  escalated: number;
  expired: number;
  cancelled: number;
}

const SYSTEM = { type: 'system', name: 'approval-sweeper' } as const;

/**
 * Applies time to pending approvals: after `escalateAt` the required role becomes `escalateToRole`;
 * after `expiresAt` the row is `expired` and the waiting session is woken up to apply the policy's
 * expiry outcome (the wake-up resolver turns it into `approval.decided`). Approvals of runs that
 * ended meanwhile (cancelled while waiting) are closed as `cancelled`. Every change is a
 * conditional UPDATE (`status = 'pending'` and the due time still due), committed with its audit
 * row: any number of workers may sweep at once and each row changes once; a decision made at the
 * same moment wins or loses cleanly (its own UPDATE is conditional on `pending` too).
 */
export class ApprovalSweeper {
  private readonly periodic: Periodic;

  constructor(private readonly options: ApprovalSweeperOptions) {
    this.periodic = new Periodic(options.intervalMs, () => this.pass());
  }

  start(): void {
    this.periodic.start();
  }

  async stop(): Promise<void> {
    await this.periodic.stop();
  }

  /** One pass over due approvals; failures are logged (the next pass tries again). */
  async pass(): Promise<SweepResult> {
    const result: SweepResult = { escalated: 0, expired: 0, cancelled: 0 };
    const teams = new Set<string>();
    try {
      const now = new Date(this.options.clock.now());
      result.escalated = await this.escalate(now, teams);
      result.expired = await this.expire(now, teams);
      result.cancelled = await this.closeEnded(now, teams);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'approval sweep failed');
    }
    for (const teamId of teams) await this.options.gate.publishCount(teamId);
    if (result.escalated + result.expired + result.cancelled > 0) this.options.logger.info(result, 'approvals swept');
    return result;
  }

  private async due(where: object): Promise<string[]> {
    const rows = await this.options.db.approval.findMany({ where, select: { id: true }, orderBy: { createdAt: 'asc' }, take: this.options.batch ?? 200 });
    return rows.map((r) => r.id);
  }

  private async escalate(now: Date, teams: Set<string>): Promise<number> {
    const ids = await this.due({ status: 'pending', escalateAt: { lte: now }, escalateToRole: { not: null } });
    let count = 0;
    for (const id of ids) {
      const changed = await this.options.db.$transaction(async (tx) => {
        const row = await tx.approval.findUnique({ where: { id }, select: { teamId: true, runId: true, requiredRole: true, escalateToRole: true } });
        if (!row?.escalateToRole) return null;
        const { count: updated } = await tx.approval.updateMany({
          where: { id, status: 'pending', escalateAt: { lte: now } },
          data: { requiredRole: row.escalateToRole, escalateAt: null },
        });
        if (updated === 0) return null;
        await appendAudit(tx, {
          teamId: row.teamId,
          actor: SYSTEM,
          action: 'approval.escalated',
          targetType: 'approval',
          targetId: id,
          data: { runId: row.runId, from: row.requiredRole, to: row.escalateToRole },
        });
        return row.teamId;
      });
      if (changed) {
        count++;
        teams.add(changed);
      }
    }
    return count;
  }

  private async expire(now: Date, teams: Set<string>): Promise<number> {
    const ids = await this.due({ status: 'pending', expiresAt: { lte: now } });
    let count = 0;
    for (const id of ids) {
      const expired = await this.options.db.$transaction(async (tx) => {
        const { count: updated } = await tx.approval.updateMany({
          where: { id, status: 'pending', expiresAt: { lte: now } },
          data: { status: 'expired', decidedAt: now },
        });
        if (updated === 0) return null;
        const row = await tx.approval.findUniqueOrThrow({
          where: { id },
          select: { teamId: true, runId: true, sessionId: true, expiryOutcome: true, tool: true, toolCallId: true },
        });
        await appendAudit(tx, {
          teamId: row.teamId,
          actor: SYSTEM,
          action: 'approval.expired',
          targetType: 'approval',
          targetId: id,
          data: { runId: row.runId, sessionId: row.sessionId, tool: row.tool, callId: row.toolCallId, outcome: row.expiryOutcome },
        });
        return row;
      });
      if (!expired) continue;
      count++;
      teams.add(expired.teamId);
      await this.options.enqueue({ runId: expired.runId, sessionId: expired.sessionId, reason: 'resume' }).catch((error: unknown) => {
        // The reconciler does not wake waiting sessions: the next pass cannot either (the row is
        // no longer pending), so say so loudly; a later decision-less wake-up still resolves it.
        this.options.logger.error({ err: error, approvalId: id }, 'cannot enqueue the session of an expired approval');
      });
    }
    return count;
  }

  private async closeEnded(now: Date, teams: Set<string>): Promise<number> {
    const ids = await this.due({ status: 'pending', run: { status: { in: [...TERMINAL_RUN_STATUSES] } } });
    if (ids.length === 0) return 0;
    return this.options.db.$transaction(async (tx) => {
      const rows = await tx.approval.updateManyAndReturn({
        where: { id: { in: ids }, status: 'pending', run: { status: { in: [...TERMINAL_RUN_STATUSES] } } },
        data: { status: 'cancelled', decidedAt: now, comment: 'the run ended before a decision' },
        select: { id: true, teamId: true, runId: true },
      });
      for (const row of rows) {
        teams.add(row.teamId);
        await appendAudit(tx, {
          teamId: row.teamId,
          actor: SYSTEM,
          action: 'approval.cancelled',
          targetType: 'approval',
          targetId: row.id,
          data: { runId: row.runId },
        });
      }
      return rows.length;
    });
  }
}
