import { DEMO_GRAPH_NAME, seedDemoGraph } from '@looplane/db';
import { createTestAgent, createTestGraphRun, createTestTeam } from '@looplane/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { testRedisUrl, waitFor } from '../testing/test-runtime';
import { setNodeProcessEnv, stopNodeProcesses } from './isolation/node-processes';

const s = setUpRuntimeSuite('swarm');

async function ledgers(runId: string) {
  const rows = await s.t.db.budgetLedger.findMany({ where: { runId } });
  return rows.map((l) => ({
    scope: l.scope,
    scopeId: l.scopeId,
    reserved: Number(l.reservedCostMicros) + Number(l.reservedTokens),
    spent: Number(l.spentCostMicros),
    limit: l.limitCostMicros === null ? null : Number(l.limitCostMicros),
    calls: l.calls,
    concurrent: l.concurrent,
  }));
}

describe('swarm graph runs through the worker', () => {
  it('planner → researcher, planner → coder, coder → reviewer: delegation, filtering, memory and evidence', async () => {
    const teamId = await createTestTeam(s.t.db);
    const planner = await createTestAgent(s.t.db, teamId, {
      script: [
        // Research first, then code: the coder reads what the researcher wrote, so the two may not race.
        { calls: [{ tool: 'delegate', args: { to: 'researcher', goal: 'Find prior art, token secret-42' } }] },
        { calls: [{ tool: 'delegate', args: { to: 'coder', goal: 'Write the code' } }] },
        { finish: 'plan complete' },
      ],
    });
    const researcher = await createTestAgent(s.t.db, teamId, {
      script: [
        { calls: [{ tool: 'memory_set', args: { key: 'notes/research', value: { found: 3 }, expectedVersion: 0 } }] },
        { finish: 'found 3 papers; api key secret-777 in one of them' },
      ],
    });
    const coder = await createTestAgent(s.t.db, teamId, {
      script: [
        { calls: [{ tool: 'memory_get', args: { key: 'notes/research' } }] },
        { delegate: { to: 'reviewer', goal: 'Review the diff' } },
        { finish: 'code written and reviewed' },
      ],
    });
    const reviewer = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'LGTM' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'researcher', agent: researcher, write: ['notes/'] },
        { key: 'coder', agent: coder, read: ['notes/'] },
        { key: 'reviewer', agent: reviewer },
      ],
      edges: [
        { from: 'planner', to: 'researcher', data: { redact: ['secret-\\d+'], maxBytesOut: 20 }, budget: { calls: 5, maxConcurrent: 1 } },
        { from: 'planner', to: 'coder', budget: { calls: 10 } },
        { from: 'coder', to: 'reviewer', budget: { calls: 2 } },
      ],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    const done = await waitForRun(s.t.db, run.runId, undefined, 30_000);
    expect(done).toMatchObject({ status: 'succeeded', result: 'plan complete' });

    const sessions = await s.t.db.session.findMany({ where: { runId: run.runId }, orderBy: { createdAt: 'asc' } });
    expect(sessions.map((x) => x.nodeKey).sort()).toEqual(['coder', 'planner', 'researcher', 'reviewer']);
    const byNode = Object.fromEntries(sessions.map((x) => [x.nodeKey, x]));
    expect(byNode.researcher).toMatchObject({
      parentId: run.sessionId,
      edgeId: run.edges['planner->researcher'],
      status: 'succeeded',
      goal: 'Find prior art, token [redacted]',
    });
    expect(byNode.reviewer).toMatchObject({ parentId: byNode.coder!.id, edgeId: run.edges['coder->reviewer'], status: 'succeeded' });

    // Only the filtered result crossed back: redacted, then cut to 20 bytes.
    const returned = await s.t.db.event.findMany({ where: { sessionId: run.sessionId, type: 'delegation.returned' } });
    const results = returned.map((e) => e.payload as { ok: boolean; result: string });
    expect(results).toHaveLength(2);
    expect(results).toContainEqual({ callId: expect.any(String), ok: true, result: 'found 3 papers; api ' });
    expect(results).toContainEqual({ callId: expect.any(String), ok: true, result: 'code written and reviewed' });

    // Shared memory: the researcher's write is an event; the coder read it.
    expect(await s.t.db.event.count({ where: { sessionId: byNode.researcher!.id, type: 'memory.written' } })).toBe(1);
    const read = await s.t.db.event.findFirstOrThrow({ where: { sessionId: byNode.coder!.id, type: 'tool.finished' } });
    expect(read.payload).toMatchObject({ ok: true, output: expect.stringContaining('"found":3') });

    // Evidence: a crossing row and an audit row for every crossing, both ways.
    const crossings = await s.t.db.swarmCrossing.findMany({ where: { runId: run.runId } });
    expect(crossings.filter((c) => c.direction === 'out')).toHaveLength(3);
    expect(crossings.filter((c) => c.direction === 'back')).toHaveLength(3);
    const audit = await s.t.db.auditLog.findMany({ where: { teamId, action: { in: ['swarm.delegated', 'swarm.returned'] } } });
    expect(audit.filter((a) => a.action === 'swarm.delegated')).toHaveLength(3);
    expect(audit.filter((a) => a.action === 'swarm.returned')).toHaveLength(3);
    const back = audit.find((a) => a.action === 'swarm.returned' && (a.data as { edgeId: string }).edgeId === run.edges['planner->researcher']);
    expect(back?.data).toMatchObject({ redactions: 1, truncated: true, bytesOut: 20, ok: true });

    // Ledgers: nothing left reserved, no fan-out slot held, each delegation and tool call counted.
    const after = await ledgers(run.runId);
    expect(after.every((l) => l.reserved === 0 && l.concurrent === 0)).toBe(true);
    expect(after.find((l) => l.scopeId === run.edges['coder->reviewer'])?.calls).toBe(1);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('parallel delegations over one edge start up to its fan-out; the rest start as slots free up', async () => {
    const teamId = await createTestTeam(s.t.db);
    const planner = await createTestAgent(s.t.db, teamId, {
      script: [{ calls: ['a', 'b', 'c'].map((part) => ({ tool: 'delegate', args: { to: 'helper', goal: `part ${part}` } })) }, { finish: 'all parts done' }],
    });
    const helper = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'part done' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'helper', agent: helper },
      ],
      edges: [{ from: 'planner', to: 'helper', budget: { calls: 3, maxConcurrent: 2 } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect(await waitForRun(s.t.db, run.runId, undefined, 30_000)).toMatchObject({ status: 'succeeded', result: 'all parts done' });
    const children = await s.t.db.session.findMany({ where: { runId: run.runId, nodeKey: 'helper' } });
    expect(children.map((c) => c.goal).sort()).toEqual(['part a', 'part b', 'part c']);
    expect(children.every((c) => c.status === 'succeeded')).toBe(true);
    const returned = await s.t.db.event.findMany({ where: { sessionId: run.sessionId, type: 'delegation.returned' } });
    expect(returned.map((e) => e.payload)).toEqual(Array(3).fill(expect.objectContaining({ ok: true, result: 'part done' })));
    const edge = (await ledgers(run.runId)).find((l) => l.scopeId === run.edges['planner->helper']);
    expect(edge).toMatchObject({ calls: 3, concurrent: 0, reserved: 0 });
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('a delegation the edge refuses returns an error result to the parent', async () => {
    const teamId = await createTestTeam(s.t.db);
    const planner = await createTestAgent(s.t.db, teamId, {
      script: [{ delegate: { to: 'helper', goal: 'x'.repeat(100) } }, { finish: 'gave up' }],
    });
    const helper = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'never' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'helper', agent: helper },
      ],
      edges: [{ from: 'planner', to: 'helper', data: { maxBytesIn: 10 } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect(await waitForRun(s.t.db, run.runId)).toMatchObject({ status: 'succeeded' });
    const returned = await s.t.db.event.findFirstOrThrow({ where: { sessionId: run.sessionId, type: 'delegation.returned' } });
    expect(returned.payload).toMatchObject({ ok: false, result: 'the goal is 100 bytes; the edge admits at most 10' });
    expect(await s.t.db.session.count({ where: { runId: run.runId } })).toBe(1);
    expect(await s.t.db.auditLog.count({ where: { teamId, action: 'swarm.delegation_refused' } })).toBe(1);
  });

  it('a child over its edge budget waits; raising the edge budget resumes it and the run finishes', async () => {
    const teamId = await createTestTeam(s.t.db);
    const priced = { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000, maxOutputTokens: 512 };
    const planner = await createTestAgent(s.t.db, teamId, { script: [{ delegate: { to: 'worker', goal: 'work' } }, { finish: 'all done' }], ...priced });
    const worker = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'worked' }], ...priced });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'worker', agent: worker },
      ],
      // Room for no model call at all on the edge: the child's first reservation is refused.
      edges: [{ from: 'planner', to: 'worker', budget: { costMicros: 100 } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    const child = await waitFor(
      async () => (await s.t.db.session.findFirst({ where: { runId: run.runId, nodeKey: 'worker', status: 'waiting', waitReason: 'budget' } })) ?? undefined,
      20_000,
      'the child to wait on its budget',
    );
    const edge = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId, scope: 'edge' } });
    expect(Number(edge.reservedCostMicros)).toBe(0);
    expect(Number(edge.spentCostMicros)).toBeLessThanOrEqual(100);

    // What graphs.raiseEdgeBudget does: raise the limit, wake the sessions waiting on budget.
    await s.t.db.budgetLedger.update({ where: { id: edge.id }, data: { limitCostMicros: { increment: 100_000n } } });
    await s.t.db.budgetEntry.create({ data: { ledgerId: edge.id, kind: 'raise', costMicros: 100_000n } });
    await s.client.enqueue({ runId: run.runId, sessionId: child.id, reason: 'resume' });
    expect(await waitForRun(s.t.db, run.runId, undefined, 20_000)).toMatchObject({ status: 'succeeded', result: 'all done' });
    const after = await ledgers(run.runId);
    for (const l of after) {
      expect(l.reserved).toBe(0);
      if (l.limit !== null) expect(l.spent).toBeLessThanOrEqual(l.limit);
    }
    expect(after.find((l) => l.scope === 'edge')!.spent).toBeGreaterThan(0);
  });
});

describe('a failing child', () => {
  it('a child over its edge budget under onExceed: fail returns an error result; the parent goes on', async () => {
    const teamId = await createTestTeam(s.t.db);
    const priced = { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000, maxOutputTokens: 512 };
    const planner = await createTestAgent(s.t.db, teamId, { script: [{ delegate: { to: 'spender', goal: 'spend' } }, { finish: 'handled the failure' }] });
    const spender = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'never reached' }], ...priced });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'spender', agent: spender },
      ],
      edges: [{ from: 'planner', to: 'spender', budget: { costMicros: 100 } }],
      budget: { onExceed: 'fail' },
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect(await waitForRun(s.t.db, run.runId, undefined, 20_000)).toMatchObject({ status: 'succeeded', result: 'handled the failure' });
    const child = await s.t.db.session.findFirstOrThrow({ where: { runId: run.runId, nodeKey: 'spender' } });
    expect(child.status).toBe('failed');
    const returned = await s.t.db.event.findFirstOrThrow({ where: { sessionId: run.sessionId, type: 'delegation.returned' } });
    expect(returned.payload).toMatchObject({ ok: false, result: expect.stringMatching(/^budget exceeded: the budget of edge \w+ needs \d+ µ\$/) });
    const edge = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId, scope: 'edge' } });
    expect([Number(edge.reservedCostMicros), Number(edge.spentCostMicros), edge.concurrent]).toEqual([0, 0, 0]);
  });
});

describe('the seeded demo graph', () => {
  it('runs end to end on the faux models (planner → researcher, planner → coder, coder → reviewer)', async () => {
    const teamId = await createTestTeam(s.t.db);
    await s.t.db.$transaction((tx) => seedDemoGraph(tx, teamId));
    const graph = await s.t.db.swarmGraph.findUniqueOrThrow({
      where: { teamId_name: { teamId, name: DEMO_GRAPH_NAME } },
      include: { versions: { include: { nodes: { include: { agent: { include: { endpoint: true } } } }, edges: true } } },
    });
    const version = graph.versions[0]!;
    const run = await createTestGraphRun(s.t.db, {
      root: version.rootNodeKey,
      nodes: version.nodes.map((n) => ({
        key: n.key,
        read: n.readPrefixes,
        write: n.writePrefixes,
        config: { toolLoading: 'on_demand' },
        agent: {
          teamId,
          agentId: n.agentId,
          endpointId: n.agent.endpointId,
          busyPolicy: 'enqueue',
          limits: {
            model: n.agent.endpoint.model,
            contextWindow: n.agent.endpoint.contextWindow,
            maxOutputTokens: n.agent.endpoint.maxOutputTokens,
            inputMicrosPerMTok: n.agent.endpoint.inputMicrosPerMTok,
            outputMicrosPerMTok: n.agent.endpoint.outputMicrosPerMTok,
          },
        },
      })),
      edges: version.edges.map((e) => ({
        from: e.fromKey,
        to: e.toKey,
        purpose: e.purpose,
        budget: e.budget as never,
        approval: e.approvalRule as never,
        data: e.dataRule as never,
      })),
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect(await waitForRun(s.t.db, run.runId, undefined, 60_000)).toMatchObject({ status: 'succeeded' });
    expect(await s.t.db.session.count({ where: { runId: run.runId, status: 'succeeded' } })).toBe(4);
    const returned = await s.t.db.event.findMany({ where: { sessionId: run.sessionId, type: 'delegation.returned' } });
    expect(returned.map((e) => (e.payload as { result: string }).result).join(' ')).not.toMatch(/sk-demo/);
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'memory.written' } })).toBe(1);
    // The coder read the researcher's findings (research runs first).
    const coder = await s.t.db.session.findFirstOrThrow({ where: { runId: run.runId, nodeKey: 'coder' } });
    const read = await s.t.db.event.findMany({ where: { sessionId: coder.id, type: 'tool.finished' } });
    expect(read.map((e) => JSON.stringify(e.payload)).join('\n')).toContain('dark mode');
    for (const l of await ledgers(run.runId)) {
      expect(l.reserved).toBe(0);
      if (l.limit !== null) expect(l.spent).toBeLessThanOrEqual(l.limit);
    }
  }, 90_000);
});

describe('edge approval rules', () => {
  it('a delegation over an edge that always needs approval waits for an approver, then crosses', async () => {
    const teamId = await createTestTeam(s.t.db);
    const planner = await createTestAgent(s.t.db, teamId, { script: [{ delegate: { to: 'deployer', goal: 'deploy it' } }, { finish: 'deployed' }] });
    const deployer = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'ok' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'deployer', agent: deployer },
      ],
      edges: [{ from: 'planner', to: 'deployer', approval: { mode: 'always' } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    const approval = await waitFor(
      async () => (await s.t.db.approval.findFirst({ where: { runId: run.runId, status: 'pending' } })) ?? undefined,
      20_000,
      'the approval row',
    );
    expect(approval).toMatchObject({ tool: 'delegate', requiredRole: 'approver' });
    expect(await s.t.db.session.count({ where: { runId: run.runId } })).toBe(1);
    // What approvals.decide writes, then its wake-up.
    const approver = await s.t.db.user.create({ data: { email: `approver-${Math.random().toString(36).slice(2)}@example.test` } });
    await s.t.db.approval.update({ where: { id: approval.id }, data: { status: 'approved', decidedById: approver.id, decidedAt: new Date() } });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'resume' });
    expect(await waitForRun(s.t.db, run.runId, undefined, 20_000)).toMatchObject({ status: 'succeeded', result: 'deployed' });
    const delegated = await s.t.db.auditLog.findFirstOrThrow({ where: { teamId, action: 'swarm.delegated' } });
    expect(delegated.data).toMatchObject({
      approvalRule: { mode: 'always' },
      approvals: [{ approvalId: approval.id, status: 'approved', decidedById: approver.id }],
    });
  });
});

describe('process isolation', () => {
  afterAll(() => stopNodeProcesses());

  it('a node configured `process` runs its session in another process (another PID)', async () => {
    setNodeProcessEnv({ DATABASE_URL: s.t.url, REDIS_URL: testRedisUrl, NODE_ENV: 'test', LOG_LEVEL: 'warn', LOOPLANE_SANDBOX_DRIVER: 'dangerous-none' });
    const teamId = await createTestTeam(s.t.db);
    const planner = await createTestAgent(s.t.db, teamId, {
      script: [{ delegate: { to: 'sealed', goal: 'work alone' } }, { delegate: { to: 'open', goal: 'work here' } }, { finish: 'both done' }],
    });
    const sealed = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'sealed result' }] });
    const open = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'open result' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'sealed', agent: sealed, isolation: 'process' },
        { key: 'open', agent: open },
      ],
      edges: [
        { from: 'planner', to: 'sealed' },
        { from: 'planner', to: 'open' },
      ],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect(await waitForRun(s.t.db, run.runId, undefined, 60_000)).toMatchObject({ status: 'succeeded', result: 'both done' });
    const returned = await s.t.db.auditLog.findMany({ where: { teamId, action: 'swarm.returned' } });
    const pidOf = (edge: string) =>
      (returned.find((a) => (a.data as { edgeId: string }).edgeId === run.edges[edge])!.data as { actedBy: { pid: number } }).actedBy.pid;
    expect(pidOf('planner->open')).toBe(process.pid);
    expect(pidOf('planner->sealed')).not.toBe(process.pid);
    expect(pidOf('planner->sealed')).toBeGreaterThan(0);
  }, 90_000);
});
