import { describe, expect, it } from 'vitest';
import { createAgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { graphDefinitionFor, graphName } from './graphs.fixtures';
const tb = apiTestbed({ agent: true });
const operator = () => tb.as('operator');

describe('graphs', () => {
  it('creates, versions on every update, reads any version and lists, with audit rows', async () => {
    const api = await operator();
    const created = await api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: graphDefinitionFor(tb.agent.agentId) });
    expect(created).toMatchObject({
      version: 1,
      root: 'planner',
      nodes: [
        { key: 'planner', isolation: 'shared' },
        { key: 'researcher', writePrefixes: ['notes/'] },
      ],
    });
    expect(created.edges[0]).toMatchObject({ from: 'planner', to: 'researcher', approval: { mode: 'never' }, data: { redact: [] } });
    const definition = graphDefinitionFor(tb.agent.agentId);
    definition.nodes.push({ key: 'coder', agentId: tb.agent.agentId, writePrefixes: [] });
    const updated = await api.graphs.update({
      teamId: tb.fx.teamId,
      graphId: created.id,
      expectedVersion: 1,
      definition: {
        ...definition,
        edges: [...definition.edges, { from: 'planner', to: 'coder', purpose: 'write code', budget: { tokens: 10_000, calls: 3, maxConcurrent: 1 } }],
      },
    });
    expect(updated).toMatchObject({ version: 2, currentVersion: 2 });
    expect(updated.nodes.map((n) => n.key)).toEqual(['coder', 'planner', 'researcher']);
    expect((await api.graphs.get({ teamId: tb.fx.teamId, graphId: created.id, version: 1 })).nodes).toHaveLength(2);
    await expect(
      api.graphs.update({ teamId: tb.fx.teamId, graphId: created.id, expectedVersion: 1, definition: graphDefinitionFor(tb.agent.agentId) }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await api.graphs.list({ teamId: tb.fx.teamId })).find((g) => g.id === created.id)).toMatchObject({ currentVersion: 2, nodes: 3, edges: 2 });
    const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, targetId: created.id }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['graph.created', 'graph.updated']);
  });

  it('refuses bad graphs with a clear message and writes nothing', async () => {
    const api = await operator();
    const base = graphDefinitionFor(tb.agent.agentId);
    const bad: [unknown, RegExp][] = [
      [{ ...base, root: 'nobody' }, /the root nobody is not a node/],
      [{ ...base, edges: [{ ...base.edges[0], to: 'ghost' }] }, /names a missing node ghost/],
      [
        {
          ...base,
          nodes: [...base.nodes, { key: 'coder', agentId: tb.agent.agentId }],
          edges: [...base.edges, { from: 'researcher', to: 'coder', purpose: 'x' }, { from: 'coder', to: 'researcher', purpose: 'y' }],
        },
        /cycle/,
      ],
      [{ ...base, edges: [{ ...base.edges[0], data: { redact: ['(unclosed'] } }] }, /not a valid regular expression/],
      [{ ...base, edges: [{ ...base.edges[0], data: { redact: ['a*'] } }] }, /matches the empty string/],
      [{ ...base, edges: [] }, /not reachable from the root/],
      [{ ...base, edges: [{ ...base.edges[0], from: 'researcher', to: 'planner' }] }, /enters the root/],
    ];
    const before = await tb.db.swarmGraph.count();
    for (const [definition, message] of bad) {
      await expect(api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: definition as never })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message,
      });
    }
    // An agent of another team is not found, as if it did not exist.
    const other = await createAgentFixture(tb.db, tb.fx.otherTeamId);
    await expect(api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: graphDefinitionFor(other.agentId) })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await tb.db.swarmGraph.count()).toBe(before);
  });

  it('runs.create({ graphId }) starts the root node with a ledger per edge; raiseEdgeBudget raises one', async () => {
    const api = await operator();
    const graph = await api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: graphDefinitionFor(tb.agent.agentId) });
    const { runId } = await api.runs.create({
      teamId: tb.fx.teamId,
      graphId: graph.id,
      goal: 'plan the launch',
      budget: { costMicros: 5000, onExceed: 'wait' },
    });
    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId }, include: { sessions: true, ledgers: true } });
    expect(run).toMatchObject({ graphId: graph.id, graphVersion: 1, status: 'queued', goal: 'plan the launch' });
    expect(run.sessions).toEqual([expect.objectContaining({ nodeKey: 'planner', parentId: null, edgeId: null })]);
    expect(run.ledgers.map((l) => [l.scope, l.scopeId, l.limitCalls, l.limitConcurrent]).sort()).toEqual([
      ['edge', graph.edges[0]!.id, 3, 1],
      ['run', '', null, null],
    ]);
    const config = run.sessions[0]!.config as { delegates: { to: string; description: string }[] };
    expect(config.delegates).toEqual([{ to: 'researcher', description: 'research a question' }]);
    // A node parked on its budget (as the worker leaves it) is woken by the raise.
    await tb.db.session.update({ where: { id: run.sessions[0]!.id }, data: { status: 'waiting', waitReason: 'budget' } });
    const operatorTry = api.graphs.raiseEdgeBudget({ teamId: tb.fx.teamId, runId, edgeId: graph.edges[0]!.id, tokens: 500 });
    await expect(operatorTry).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const approver = await tb.as('approver');
    const raised = await approver.graphs.raiseEdgeBudget({ teamId: tb.fx.teamId, runId, edgeId: graph.edges[0]!.id, tokens: 500, calls: 2 });
    expect(raised).toMatchObject({ limits: { tokens: 10_500, costMicros: null, calls: 5 }, woken: 1 });
    expect(await tb.live.jobs()).toContainEqual({ runId, sessionId: run.sessions[0]!.id, reason: 'resume' });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'budget.raised', targetId: runId } });
    expect(audit.data).toMatchObject({ edgeId: graph.edges[0]!.id, by: { tokens: 500, costMicros: 0, calls: 2 } });
    const view = await api.graphs.run({ teamId: tb.fx.teamId, runId });
    expect(view.edges[0]).toMatchObject({ from: 'planner', to: 'researcher', ledger: { limitTokens: 10_500, limitCalls: 5, spentTokens: 0 } });
    await expect(approver.graphs.raiseEdgeBudget({ teamId: tb.fx.teamId, runId, edgeId: 'nosuchedge', tokens: 1 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it("a node's minimumDriver sets the least isolation of its sessions' calls: the stronger of it and its agent's driver", async () => {
    const api = await operator();
    const base = graphDefinitionFor(tb.agent.agentId);
    const definition = { ...base, nodes: [{ ...base.nodes[0]!, minimumDriver: 'gvisor' as const }, base.nodes[1]!] };
    const graph = await api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition });
    expect(graph.nodes.map((n) => [n.key, n.minimumDriver])).toEqual([
      ['planner', 'gvisor'],
      ['researcher', null],
    ]);
    expect((await api.graphs.get({ teamId: tb.fx.teamId, graphId: graph.id })).nodes[0]!.minimumDriver).toBe('gvisor');
    const { runId } = await api.runs.create({ teamId: tb.fx.teamId, graphId: graph.id, goal: 'plan in gVisor' });
    const root = await tb.db.session.findFirstOrThrow({ where: { runId, parentId: null } });
    expect((root.config as { sandbox?: { driver?: string } }).sandbox?.driver).toBe('gvisor');
    // An unknown level is refused like any bad graph, and nothing is written.
    const before = await tb.db.swarmGraph.count();
    const bad = { ...definition, nodes: [{ ...definition.nodes[0]!, minimumDriver: 'firecracker' }, definition.nodes[1]!] };
    await expect(api.graphs.create({ teamId: tb.fx.teamId, name: graphName(), definition: bad as typeof definition })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await tb.db.swarmGraph.count()).toBe(before);
  });
});
