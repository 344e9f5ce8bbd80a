import { randomUUID } from 'node:crypto';
import { appendAudit, type Tx } from '../audit/audit.repository';
import type { Db } from '../client';
import { Prisma } from '../generated/prisma/client';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { filterCrossing } from './crossing-filter';
import { swarmSnapshotSchema, type SwarmSnapshot, type SwarmSnapshotEdge } from './swarm-snapshot';

/** A `delegate` call of a parent session that the worker turns into a child session. */
export interface DelegationRequest {
  runId: string;
  parentSessionId: string;
  callId: string;
  to: string;
  goal: string;
}

export type SpawnOutcome =
  | { kind: 'spawned'; childSessionId: string; edgeId: string }
  /** The delegation was already handled (spawned or refused) by an earlier attempt. */
  | { kind: 'exists' }
  /** The edge's fan-out is used up: try again when one of its delegations returns. */
  | { kind: 'full'; edgeId: string }
  /** Refused by the edge's rules; its error result is recorded as the return crossing. */
  | { kind: 'refused'; reason: string };

const WORKER = { type: 'system', name: 'worker' } as const;

/** A graph run's snapshot (null: not a graph run). */
export function parseSwarm(value: unknown): SwarmSnapshot | null {
  if (value === null || value === undefined) return null;
  return swarmSnapshotSchema.parse(value);
}

interface PathLedger {
  id: string;
  scope: string;
  scopeId: string;
  limitCalls: number | null;
  limitConcurrent: number | null;
  calls: number;
  concurrent: number;
}

/** The run row's lock, taken before any ledger of the run (the order every writer uses). */
const RUN_ROW_LOCK_SQL = namedQuery({
  name: 'looplane_swarm_run_lock_v1',
  params: { run_id: param.text },
  text: 'SELECT 1 FROM "Run" WHERE id = :run_id FOR UPDATE',
});

/** The ledgers of the parent's path plus the new edge, locked by id (after the run row). */
const PATH_LEDGERS_LOCK_SQL = namedQuery({
  name: 'looplane_swarm_path_ledgers_lock_v1',
  params: { run_id: param.text, parent_session_id: param.text, edge_id: param.text },
  text: `
    WITH RECURSIVE chain AS (
      SELECT id, "parentId", "edgeId", 0 AS depth FROM "Session" WHERE id = :parent_session_id
      UNION ALL SELECT s.id, s."parentId", s."edgeId", c.depth + 1 FROM "Session" s JOIN chain c ON s.id = c."parentId" WHERE c.depth < 64
    ), edges AS (SELECT "edgeId" AS id FROM chain WHERE "edgeId" IS NOT NULL UNION SELECT :edge_id)
    SELECT id, scope::text AS scope, "scopeId", "limitCalls", "limitConcurrent", calls, concurrent FROM "BudgetLedger"
    WHERE "runId" = :run_id AND ((scope = 'run' AND "scopeId" = '') OR (scope = 'edge' AND "scopeId" IN (SELECT id FROM edges)))
    ORDER BY id FOR UPDATE`,
}).returns<PathLedger>();

/** Takes the run row's lock inside the caller's Prisma transaction. */
export async function lockRunRow(tx: Tx, runId: string): Promise<void> {
  const lock = RUN_ROW_LOCK_SQL.bind({ run_id: runId });
  await tx.$queryRawUnsafe(lock.text, ...lock.values);
}

/** Locks the run row, then the ledgers of the parent's path plus the new edge (the order every writer uses). */
async function lockPath(tx: Tx, runId: string, parentSessionId: string, edgeId: string): Promise<PathLedger[]> {
  await lockRunRow(tx, runId);
  const ledgers = PATH_LEDGERS_LOCK_SQL.bind({ run_id: runId, parent_session_id: parentSessionId, edge_id: edgeId });
  return rowsOf(PATH_LEDGERS_LOCK_SQL, { rows: await tx.$queryRawUnsafe<PathLedger[]>(ledgers.text, ...ledgers.values) });
}

async function recordRefusal(
  tx: Tx,
  teamId: string,
  req: DelegationRequest,
  edge: SwarmSnapshotEdge | null,
  reason: string,
  bytesIn: number,
  redactions: number,
): Promise<void> {
  const base = { runId: req.runId, edgeId: edge?.id ?? '', parentSessionId: req.parentSessionId, callId: req.callId, ok: false, text: reason };
  await tx.swarmCrossing.createMany({
    data: [
      { ...base, direction: 'out', bytesIn, redactions },
      { ...base, direction: 'back' },
    ],
  });
  await appendAudit(tx, {
    teamId,
    actor: WORKER,
    action: 'swarm.delegation_refused',
    targetType: 'session',
    targetId: req.parentSessionId,
    data: {
      runId: req.runId,
      edgeId: edge?.id ?? null,
      from: edge?.from ?? null,
      to: req.to,
      fromSessionId: req.parentSessionId,
      callId: req.callId,
      bytesIn,
      redactions,
      reason,
    },
  });
}

/**
 * Turns a `delegate` call into a child session, once (the crossing row is unique per parent and
 * call), in one transaction: the edge's data rule is applied to the goal (redaction, bytes in),
 * the delegation is counted as a call on every ledger of the path and takes a fan-out slot on the
 * edge's ledger, the child session is created (idle, with the node's config and the filtered
 * goal), and the crossing's evidence is written (a `SwarmCrossing` row and a `swarm.delegated`
 * audit row). The caller enqueues the child after the commit. A delegation the rules refuse gets
 * an error result as its return crossing; one over the edge's fan-out waits for a free slot.
 * `actedBy` names the worker process that made the crossing.
 */
export async function spawnDelegation(db: Db, req: DelegationRequest, actedBy: { pid: number } = { pid: 0 }): Promise<SpawnOutcome> {
  try {
    return await db.$transaction(async (tx) => {
      const done = await tx.swarmCrossing.findUnique({
        where: { parentSessionId_callId_direction: { parentSessionId: req.parentSessionId, callId: req.callId, direction: 'out' } },
        select: { id: true },
      });
      if (done) return { kind: 'exists' as const };
      const run = await tx.run.findUniqueOrThrow({ where: { id: req.runId }, select: { teamId: true, swarm: true } });
      const parent = await tx.session.findUniqueOrThrow({ where: { id: req.parentSessionId }, select: { nodeKey: true } });
      const swarm = parseSwarm(run.swarm);
      const edge = swarm?.edges.find((e) => e.from === parent.nodeKey && e.to === req.to) ?? null;
      const node = swarm?.nodes.find((n) => n.key === req.to);
      if (!swarm || !edge || !node) {
        const reason = `node ${parent.nodeKey ?? '(none)'} has no edge to ${req.to}`;
        await recordRefusal(tx, run.teamId, req, null, reason, 0, 0);
        return { kind: 'refused' as const, reason };
      }
      const goal = filterCrossing(req.goal, edge.data, 'in');
      if (goal.refused) {
        await recordRefusal(tx, run.teamId, req, edge, goal.refused, goal.bytesBefore, goal.redactions);
        return { kind: 'refused' as const, reason: goal.refused };
      }
      const ledgers = await lockPath(tx, req.runId, req.parentSessionId, edge.id);
      const edgeLedger = ledgers.find((l) => l.scope === 'edge' && l.scopeId === edge.id);
      if (edgeLedger && edgeLedger.limitConcurrent !== null && edgeLedger.concurrent + 1 > edgeLedger.limitConcurrent) {
        return { kind: 'full' as const, edgeId: edge.id };
      }
      const spent = ledgers.find((l) => l.limitCalls !== null && l.calls + 1 > l.limitCalls);
      if (spent) {
        // The webhooks trigger on SwarmCrossing (migration `webhooks`) reads "edge <id> has used its budget of <n> calls".
        const reason = `${spent.scope === 'run' ? 'the run' : `edge ${spent.scopeId}`} has used its budget of ${spent.limitCalls} calls`;
        await recordRefusal(tx, run.teamId, req, edge, reason, goal.bytes, goal.redactions);
        return { kind: 'refused' as const, reason };
      }
      const key = `${req.parentSessionId}:delegate:${req.callId}`;
      await tx.budgetLedger.updateMany({ where: { id: { in: ledgers.map((l) => l.id) } }, data: { calls: { increment: 1 } } });
      if (edgeLedger) await tx.budgetLedger.update({ where: { id: edgeLedger.id }, data: { concurrent: { increment: 1 } } });
      await tx.budgetEntry.createMany({ data: ledgers.map((l) => ({ ledgerId: l.id, kind: 'call', calls: 1, reservation: key })) });
      const childSessionId = `c${randomUUID().replaceAll('-', '').slice(0, 24)}`;
      await tx.session.create({
        data: {
          id: childSessionId,
          runId: req.runId,
          parentId: req.parentSessionId,
          nodeKey: node.key,
          edgeId: edge.id,
          callId: req.callId,
          goal: goal.text,
          agentId: node.agentId,
          endpointId: node.endpointId,
          config: node.config as Prisma.InputJsonValue,
          title: node.title,
          status: 'idle',
        },
      });
      await tx.swarmCrossing.create({
        data: {
          runId: req.runId,
          edgeId: edge.id,
          direction: 'out',
          parentSessionId: req.parentSessionId,
          childSessionId,
          callId: req.callId,
          ok: true,
          text: goal.text,
          bytesIn: goal.bytes,
          redactions: goal.redactions,
        },
      });
      // The approvals that let this call through (an edge rule or the team's policy asked for them).
      const approvals = await tx.approval.findMany({
        where: { sessionId: req.parentSessionId, toolCallId: req.callId },
        select: { id: true, status: true, decidedById: true, policyRuleId: true },
      });
      await appendAudit(tx, {
        teamId: run.teamId,
        actor: WORKER,
        action: 'swarm.delegated',
        targetType: 'session',
        targetId: childSessionId,
        data: {
          runId: req.runId,
          edgeId: edge.id,
          from: edge.from,
          to: edge.to,
          purpose: edge.purpose,
          fromSessionId: req.parentSessionId,
          toSessionId: childSessionId,
          callId: req.callId,
          actedBy,
          bytesIn: goal.bytes,
          bytesBeforeFilter: goal.bytesBefore,
          redactions: goal.redactions,
          approvalRule: edge.approval,
          approvals: approvals.map((a) => ({ approvalId: a.id, status: a.status, decidedById: a.decidedById, ruleId: a.policyRuleId })),
        },
      });
      return { kind: 'spawned' as const, childSessionId, edgeId: edge.id };
    });
  } catch (error) {
    // Two workers spawning the same call at once: the loser finds the winner's rows.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return { kind: 'exists' };
    throw error;
  }
}
