import { parseSwarm, type ApprovalRule, type SwarmSnapshotEdge } from '@looplane/db';
import { DELEGATE, type PolicyDecision, type PolicyPort } from '@looplane/engine';
import { swarmDeps } from './swarm-deps';

/** Whether a delegation over the edge needs a person first (see `approvalRuleSchema`). */
function edgeNeedsApproval(rule: ApprovalRule, budget: SwarmSnapshotEdge['budget']): boolean {
  if (rule.mode === 'never') return false;
  if (rule.mode === 'always') return true;
  // What the subtree may spend over this edge is its cost budget; unlimited is above any amount.
  return budget.costMicros === undefined || budget.costMicros > rule.costMicros;
}

/**
 * The team's policy for a graph node's session, with the edges' approval rules on top: a
 * `delegate` call the team allows over an edge whose rule asks for a person becomes
 * `require_approval` (the ordinary approval gate: an Approval row, `approvals.decide`). A team
 * deny or approval requirement stands as it is.
 */
export function withEdgeApprovals(team: PolicyPort, session: { runId: string; sessionId: string }): PolicyPort {
  let edges: Promise<SwarmSnapshotEdge[]> | null = null;
  const outgoing = async (): Promise<SwarmSnapshotEdge[]> => {
    const deps = swarmDeps();
    if (!deps) return [];
    const row = await deps.db.session.findUnique({ where: { id: session.sessionId }, select: { nodeKey: true, run: { select: { swarm: true } } } });
    return parseSwarm(row?.run.swarm)?.edges.filter((e) => e.from === row?.nodeKey) ?? [];
  };
  return {
    async evaluate(call, options): Promise<PolicyDecision> {
      const verdict = await team.evaluate(call, options);
      if (call.name !== DELEGATE || verdict.decision !== 'allow') return verdict;
      edges ??= outgoing();
      const edge = (await edges).find((e) => e.to === call.args.to);
      if (!edge || !edgeNeedsApproval(edge.approval, edge.budget)) return verdict;
      const rule = edge.approval;
      const why = rule.mode === 'aboveCost' ? `its budget may spend more than ${rule.costMicros} µ$` : 'every delegation over it needs approval';
      return { decision: 'require_approval', role: 'approver', reason: `edge ${edge.from} → ${edge.to}: ${why}`, ruleId: `edge:${edge.id}`, risk: 'medium' };
    },
  };
}
