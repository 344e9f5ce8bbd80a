import { appendAudit } from '../audit/audit.repository';
import type { Db } from '../client';
import { filterCrossing } from './crossing-filter';
import { parseSwarm } from './delegation-spawn';
import { isTerminalRunStatus } from '../vocabulary/statuses';

const WORKER = { type: 'system', name: 'worker' } as const;

/** A delegated child's result as it crossed back (filtered), keyed by the parent's call. */
export interface ReturnedDelegation {
  callId: string;
  ok: boolean;
  text: string;
}

/** A finished delegated session: the parent to wake (null: not a delegated session, or not finished). */
export interface RecordedReturn {
  runId: string;
  parentSessionId: string;
}

/**
 * Records a finished child's return crossing, once (unique per parent, call and direction), in one
 * transaction: its result (or error) filtered by the edge's data rule (redaction, bytes out), the
 * subtree's spend (every `budget.charged` of the child and its descendants), the edge's fan-out
 * slot given back, and a `swarm.returned` audit row. Called by the worker when the child's job
 * ends and again by the parent's wake-up check (a lost notice is repaired there). Returns the
 * parent to wake, or null when the session is no finished delegated session. `actedBy` names the
 * worker process that recorded it (evidence of where the child ran).
 */
export async function recordReturn(db: Db, childSessionId: string, actedBy: { pid: number } = { pid: 0 }): Promise<RecordedReturn | null> {
  const child = await db.session.findUnique({
    where: { id: childSessionId },
    select: {
      runId: true,
      parentId: true,
      callId: true,
      edgeId: true,
      status: true,
      result: true,
      error: true,
      run: { select: { teamId: true, swarm: true } },
    },
  });
  if (!child?.parentId || !child.callId || !child.edgeId || !isTerminalRunStatus(child.status)) return null;
  const { parentId, callId, edgeId } = child;
  const swarm = parseSwarm(child.run.swarm);
  const edge = swarm?.edges.find((e) => e.id === edgeId);
  const ok = child.status === 'succeeded';
  const raw = ok ? (child.result ?? '') : (child.error ?? `the delegated session ${child.status}`);
  const filtered = filterCrossing(raw, edge?.data ?? { redact: [] }, 'out');
  await db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO "SwarmCrossing" (id, "runId", "edgeId", direction, "parentSessionId", "childSessionId", "callId", ok, text, "bytesOut", redactions, "createdAt")
      VALUES (${`x${childSessionId}`}, ${child.runId}, ${edgeId}, 'back', ${parentId}, ${childSessionId}, ${callId}, ${ok}, ${filtered.text}, ${filtered.bytes}, ${filtered.redactions}, now())
      ON CONFLICT ("parentSessionId", "callId", direction) DO NOTHING`;
    if (inserted === 0) return;
    const [spend] = await tx.$queryRaw<{ tokens: bigint; costMicros: bigint }[]>`
      WITH RECURSIVE tree AS (
        SELECT id, 0 AS depth FROM "Session" WHERE id = ${childSessionId}
        UNION ALL SELECT s.id, t.depth + 1 FROM "Session" s JOIN tree t ON s."parentId" = t.id WHERE t.depth < 64
      )
      SELECT COALESCE(sum((payload->>'tokens')::bigint), 0)::bigint AS tokens, COALESCE(sum((payload->>'costMicros')::bigint), 0)::bigint AS "costMicros"
      FROM "Event" WHERE "runId" = ${child.runId} AND type = 'budget.charged' AND "sessionId" IN (SELECT id FROM tree)`;
    const tokens = spend?.tokens ?? 0n;
    const costMicros = spend?.costMicros ?? 0n;
    await tx.swarmCrossing.update({ where: { id: `x${childSessionId}` }, data: { tokens, costMicros } });
    // Run row first, then the ledger: the order every writer takes them in.
    await tx.$queryRaw`SELECT 1 FROM "Run" WHERE id = ${child.runId} FOR UPDATE`;
    await tx.$executeRaw`
      UPDATE "BudgetLedger" SET concurrent = GREATEST(0, concurrent - 1), "updatedAt" = now()
      WHERE "runId" = ${child.runId} AND scope = 'edge' AND "scopeId" = ${edgeId}`;
    await appendAudit(tx, {
      teamId: child.run.teamId,
      actor: WORKER,
      action: 'swarm.returned',
      targetType: 'session',
      targetId: parentId,
      data: {
        runId: child.runId,
        edgeId,
        from: edge?.to ?? null,
        to: edge?.from ?? null,
        fromSessionId: childSessionId,
        toSessionId: parentId,
        callId,
        ok,
        status: child.status,
        bytesOut: filtered.bytes,
        bytesBeforeFilter: filtered.bytesBefore,
        truncated: filtered.truncated,
        redactions: filtered.redactions,
        subtree: { tokens: Number(tokens), costMicros: Number(costMicros) },
        actedBy,
      },
    });
  });
  return { runId: child.runId, parentSessionId: parentId };
}

/** The return crossings recorded for some of a parent's delegate calls. */
export async function returnedDelegations(db: Db, parentSessionId: string, callIds: readonly string[]): Promise<ReturnedDelegation[]> {
  return db.swarmCrossing.findMany({
    where: { parentSessionId, direction: 'back', callId: { in: [...callIds] } },
    select: { callId: true, ok: true, text: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Children of a parent's delegate calls, with their status (to repair lost return notices). */
export async function delegatedChildren(db: Db, parentSessionId: string, callIds: readonly string[]) {
  return db.session.findMany({ where: { parentId: parentSessionId, callId: { in: [...callIds] } }, select: { id: true, callId: true, status: true } });
}

/** Sessions of a run parked on child waits (woken when a fan-out slot frees up). */
export async function sessionsWaitingOnChildren(db: Db, runId: string): Promise<string[]> {
  const rows = await db.session.findMany({ where: { runId, status: 'waiting', waitReason: 'child' }, select: { id: true } });
  return rows.map((r) => r.id);
}
