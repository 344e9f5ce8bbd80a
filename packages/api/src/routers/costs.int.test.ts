import { describe, expect, it } from 'vitest';
import { appendEvents, createAgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });

const responded = (requestId: string, costMicros: number, inputTokens: number, outputTokens: number) => ({
  type: 'model.responded',
  payload: { requestId, text: '', finishReason: 'stop', usage: { inputTokens, outputTokens, estimated: false }, costMicros },
});

/** A run whose log holds model calls, as the worker writes them. */
async function runWithCalls(calls: Array<[number, number, number]>): Promise<string> {
  const api = await tb.as('operator');
  const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'spend' });
  const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
  await appendEvents(
    tb.db,
    runId,
    run.mainSessionId!,
    calls.map(([cost, input, output], i) => responded(`m${i}`, cost, input, output)),
  );
  const total = calls.reduce((sum, [cost]) => sum + cost, 0);
  const tokens = calls.reduce((sum, [, input, output]) => sum + input + output, 0);
  await tb.db.run.update({ where: { id: runId }, data: { spentCostMicros: total, spentTokens: tokens } });
  return runId;
}

describe('costs', () => {
  it('sums the team’s spend per day by agent and endpoint, and lists the runs that spent most', async () => {
    const big = await runWithCalls([
      [300, 100, 20],
      [200, 50, 10],
    ]);
    const small = await runWithCalls([[50, 10, 5]]);
    const viewer = await tb.as('viewer');
    const spend = await viewer.costs.spend({ teamId: tb.fx.teamId, days: 7 });
    expect(spend.days).toHaveLength(7);
    expect(spend.days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(spend.totalCostMicros).toBe(550);
    expect(spend.totalTokens).toBe(195);
    expect(spend.byAgent).toEqual([expect.objectContaining({ id: tb.agent.agentId, name: tb.agent.agentName, totalCostMicros: 550, tokens: 195 })]);
    expect(spend.byAgent[0]!.costMicros.at(-1)).toBe(550);
    expect(spend.byEndpoint).toEqual([expect.objectContaining({ id: tb.agent.endpointId, totalCostMicros: 550 })]);
    expect(spend.topRuns.map((r) => [r.id, r.costMicros])).toEqual([
      [big, 500],
      [small, 50],
    ]);

    const other = await tb.asUser(tb.fx.outsider.id);
    expect((await other.costs.spend({ teamId: tb.fx.otherTeamId })).totalCostMicros).toBe(0);
  });

  it('counts a swarm node session’s calls for the node’s agent, not the run’s', async () => {
    const runId = await runWithCalls([[100, 10, 1]]);
    const node = await createAgentFixture(tb.db, tb.fx.teamId);
    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
    const child = await tb.db.session.create({
      data: { runId, parentId: run.mainSessionId, nodeKey: 'coder', callId: 'call-1', agentId: node.agentId, endpointId: node.endpointId },
    });
    await appendEvents(tb.db, runId, child.id, [responded('c0', 40, 4, 2)]);
    const spend = await (await tb.as('viewer')).costs.spend({ teamId: tb.fx.teamId, days: 1 });
    expect(spend.byAgent.find((a) => a.id === node.agentId)).toMatchObject({ name: node.agentName, totalCostMicros: 40, tokens: 6 });
    expect(spend.byEndpoint.find((e) => e.id === node.endpointId)).toMatchObject({ totalCostMicros: 40 });
  });

  it('breaks one run down by model call, session and endpoint; another team’s run is NOT_FOUND', async () => {
    const runId = await runWithCalls([
      [120, 40, 4],
      [80, 30, 3],
    ]);
    const viewer = await tb.as('viewer');
    const cost = await viewer.costs.run({ teamId: tb.fx.teamId, runId });
    expect(cost.run).toMatchObject({ id: runId, costMicros: 200, tokens: 77 });
    expect(cost.modelCalls.map((c) => [c.costMicros, c.inputTokens, c.outputTokens])).toEqual([
      [120, 40, 4],
      [80, 30, 3],
    ]);
    expect(cost.bySession).toEqual([expect.objectContaining({ costMicros: 200, tokens: 77, calls: 2 })]);
    expect(cost.byEndpoint).toEqual([expect.objectContaining({ costMicros: 200, calls: 2 })]);
    const outsider = await tb.asUser(tb.fx.outsider.id);
    await expect(outsider.costs.run({ teamId: tb.fx.otherTeamId, runId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
