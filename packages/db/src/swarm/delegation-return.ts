import { appendAudit } from '../audit/audit.repository';
import type { Db } from '../client';
import { filterCrossing } from './crossing-filter';
import { lockRunRow, parseSwarm } from './delegation-spawn';
import { namedQuery, param, rowsOf } from '../sql/named-query';
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

/** The return crossing, once per parent, call and direction (0 rows: already recorded). */
const RETURN_CROSSING_SQL = namedQuery({
  name: 'looplane_swarm_return_crossing_v1',
  params: {
    crossing_id: param.text,
    run_id: param.text,
    edge_id: param.text,
    parent_session_id: param.text,
    child_session_id: param.text,
    call_id: param.text,
    ok: param.boolean,
    text: param.text,
    bytes_out: param.int,
    redactions: param.int,
  },
  text: `
      INSERT INTO "SwarmCrossing" (id, "runId", "edgeId", direction, "parentSessionId", "childSessionId", "callId", ok, text, "bytesOut", redactions, "createdAt")
      VALUES (:crossing_id, :run_id, :edge_id, 'back', :parent_session_id, :child_session_id, :call_id, :ok, :text, :bytes_out, :redactions, now())
      ON CONFLICT ("parentSessionId", "callId", direction) DO NOTHING`,
});

/** The spend of a session's subtree: every `budget.charged` of it and its descendants. */
const SUBTREE_SPEND_SQL = namedQuery({
  name: 'looplane_swarm_subtree_spend_v1',
  params: { session_id: param.text, run_id: param.text },
  text: `
      WITH RECURSIVE tree AS (
        SELECT id, 0 AS depth FROM "Session" WHERE id = :session_id
        UNION ALL SELECT s.id, t.depth + 1 FROM "Session" s JOIN tree t ON s."parentId" = t.id WHERE t.depth < 64
      )
      SELECT COALESCE(sum((payload->>'tokens')::bigint), 0)::bigint AS tokens, COALESCE(sum((payload->>'costMicros')::bigint), 0)::bigint AS "costMicros"
      FROM "Event" WHERE "runId" = :run_id AND type = 'budget.charged' AND "sessionId" IN (SELECT id FROM tree)`,
}).returns<{ tokens: bigint; costMicros: bigint }>();

/** Gives the edge's fan-out slot back (the run row is locked first). */
const RELEASE_FAN_OUT_SQL = namedQuery({
  name: 'looplane_swarm_release_fan_out_v1',
  params: { run_id: param.text, edge_id: param.text },
  text: `
      UPDATE "BudgetLedger" SET concurrent = GREATEST(0, concurrent - 1), "updatedAt" = now()
      WHERE "runId" = :run_id AND scope = 'edge' AND "scopeId" = :edge_id`,
});

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
    const crossing = RETURN_CROSSING_SQL.bind({
      crossing_id: `x${childSessionId}`,
      run_id: child.runId,
      edge_id: edgeId,
      parent_session_id: parentId,
      child_session_id: childSessionId,
      call_id: callId,
      ok,
      text: filtered.text,
      bytes_out: filtered.bytes,
      redactions: filtered.redactions,
    });
    const inserted = await tx.$executeRawUnsafe(crossing.text, ...crossing.values);
    if (inserted === 0) return;
    const spendQuery = SUBTREE_SPEND_SQL.bind({ session_id: childSessionId, run_id: child.runId });
    const [spend] = rowsOf(SUBTREE_SPEND_SQL, { rows: await tx.$queryRawUnsafe<unknown[]>(spendQuery.text, ...spendQuery.values) });
    const tokens = spend?.tokens ?? 0n;
    const costMicros = spend?.costMicros ?? 0n;
    await tx.swarmCrossing.update({ where: { id: `x${childSessionId}` }, data: { tokens, costMicros } });
    // Run row first, then the ledger: the order every writer takes them in.
    await lockRunRow(tx, child.runId);
    const release = RELEASE_FAN_OUT_SQL.bind({ run_id: child.runId, edge_id: edgeId });
    await tx.$executeRawUnsafe(release.text, ...release.values);
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
