import { createDispatch } from '@looplane/api';
import { callerAs } from '@looplane/api/testing';
import { createTestAgent, createTestGraphRun, createTestRun, createTestTeam } from '@looplane/db/testing';
import { WEBHOOK_EVENT_TYPES } from '@looplane/webhooks';
import { startReceiver, verifyReceived, type TestReceiver, type VerifiedWebhook } from '@looplane/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';
import { startTestWebhooks, webhookAdmin, type TestWebhooks } from '../testing/webhook-stack';

/**
 * Each of the six events, produced by the real state change: runs of faux agents through the real
 * worker runtime, an approval decided through the real API, budgets and graph edges exhausted by
 * real reservations and delegations. The database's triggers capture them; the worker's webhook
 * delivery sends them to a real receiver, where each is verified with `standardwebhooks`.
 */
const s = setUpRuntimeSuite('webhook-events');
let hooks: TestWebhooks;
let receiver: TestReceiver;
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const priced = { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000, maxOutputTokens: 512 };

beforeAll(async () => {
  hooks = await startTestWebhooks(s.t.url, s.prefix);
  receiver = await startReceiver();
});
afterAll(async () => {
  await hooks?.close();
  await receiver?.close();
});

const dispatch = () => createDispatch(s.client.queue, s.client.bus);

/** A team whose admin subscribed an endpoint to all six events; its secret verifies what arrives. */
async function subscribedTeam(policy?: Record<string, unknown>) {
  const teamId = await createTestTeam(s.t.db, policy ? { policy } : {});
  const admin = await webhookAdmin(s.t.db, dispatch(), teamId);
  const created = await admin.api.webhooks.create({ teamId, url: receiver.url, events: [...WEBHOOK_EVENT_TYPES] });
  return { teamId, secret: created.secret, endpointId: created.webhook.id };
}

/** The verified deliveries of `type` whose data matches, once at least `count` arrived. */
async function received(secret: string, type: string, match: (data: Record<string, unknown>) => boolean, count = 1): Promise<VerifiedWebhook[]> {
  return waitFor(
    () => {
      const found = receiver.requests
        .map((request) => {
          try {
            return verifyReceived(request, secret);
          } catch {
            return null; // another team's endpoint: another secret
          }
        })
        .filter((hook): hook is VerifiedWebhook => hook !== null && hook.type === type && match(hook.data));
      return found.length >= count ? found : undefined;
    },
    30_000,
    `${count} ${type} webhook(s)`,
  );
}

describe('the six events, from real state changes', () => {
  it('run.finished: a run that succeeds', async () => {
    const team = await subscribedTeam();
    const agent = await createTestAgent(s.t.db, team.teamId, { script: [{ finish: 'all done' }] });
    const run = await createTestRun(s.t.db, agent, { goal: 'say done' });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId);
    const [hook] = await received(team.secret, 'run.finished', (d) => d.runId === run.runId);
    expect(hook!.data).toMatchObject({
      runId: run.runId,
      status: 'succeeded',
      previousStatus: 'running',
      result: 'all done',
      goal: 'say done',
      agentId: agent.agentId,
      finishedAt: expect.stringMatching(/Z$/),
      runUrl: `https://looplane.example.test/t/${(await s.t.db.team.findUniqueOrThrow({ where: { id: team.teamId } })).slug}/runs/${run.runId}`,
    });
    expect(Date.parse(hook!.timestamp)).not.toBeNaN();
  });

  it('run.waiting, approval.requested (with its link) and approval.decided: a held call decided through the API', async () => {
    const policy = {
      version: 1,
      default: 'allow',
      rules: [{ id: 'hold-echo', match: { tool: 'echo' }, outcome: 'require_approval', reason: 'echo needs a person', risk: 'low' }],
    };
    const team = await subscribedTeam(policy);
    const agent = await createTestAgent(s.t.db, team.teamId, { script: [{ calls: [{ tool: 'echo', args: { text: 'hi' } }] }, { finish: 'echoed' }] });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId, 'waiting');
    const approval = await s.t.db.approval.findFirstOrThrow({ where: { runId: run.runId, status: 'pending' } });
    const { slug } = await s.t.db.team.findUniqueOrThrow({ where: { id: team.teamId } });

    const [requested] = await received(team.secret, 'approval.requested', (d) => d.approvalId === approval.id);
    expect(requested!.data).toMatchObject({
      approvalId: approval.id,
      runId: run.runId,
      tool: 'echo',
      args: { text: 'hi' },
      reason: 'echo needs a person',
      risk: 'low',
      policyRuleId: 'hold-echo',
      url: `https://looplane.example.test/t/${slug}/approvals?approval=${approval.id}`,
    });
    const [waiting] = await received(team.secret, 'run.waiting', (d) => d.runId === run.runId);
    expect(waiting!.data).toMatchObject({ runId: run.runId, status: 'waiting', waitReason: 'approval', pendingApprovalIds: [approval.id] });

    const approver = await s.t.db.user.create({ data: { email: `approver-${approval.id}@example.test` } });
    await s.t.db.membership.create({ data: { teamId: team.teamId, userId: approver.id, role: 'approver' } });
    const api = await callerAs({ db: s.t.db, dispatch: dispatch() }, { userId: approver.id });
    await api.approvals.decide({ teamId: team.teamId, approvalId: approval.id, decision: 'approve', comment: 'fine' });
    const [decided] = await received(team.secret, 'approval.decided', (d) => d.approvalId === approval.id);
    expect(decided!.data).toMatchObject({
      approvalId: approval.id,
      status: 'approved',
      decidedById: approver.id,
      decidedByEmail: approver.email,
      comment: 'fine',
      edited: false,
    });
    await waitForRun(s.t.db, run.runId);
    const [finished] = await received(team.secret, 'run.finished', (d) => d.runId === run.runId);
    expect(finished!.data).toMatchObject({ status: 'succeeded', result: 'echoed' });
  });

  it('budget.exceeded and run.waiting (budget): a run whose next call would pass its budget', async () => {
    const team = await subscribedTeam();
    const agent = await createTestAgent(s.t.db, team.teamId, { script: [{ finish: 'never' }], ...priced });
    const run = await createTestRun(s.t.db, agent, { config, budget: { costMicros: 100, onExceed: 'wait' } });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId, 'waiting');
    const [exceeded] = await received(team.secret, 'budget.exceeded', (d) => d.runId === run.runId);
    expect(exceeded!.data).toMatchObject({
      runId: run.runId,
      sessionId: run.sessionId,
      purpose: 'model',
      onExceed: 'wait',
      reason: expect.stringMatching(/needs \d+ µ\$; 0 spent and 0 reserved of 100/),
    });
    const [waiting] = await received(team.secret, 'run.waiting', (d) => d.runId === run.runId);
    expect(waiting!.data).toMatchObject({ waitReason: 'budget', pendingApprovalIds: null });
    // The run's own ledger refused: no edge is named, so no graph.edge.exhausted.
    expect(await s.t.db.webhookDelivery.count({ where: { endpointId: team.endpointId, eventType: 'graph.edge.exhausted' } })).toBe(0);
  });

  it('graph.edge.exhausted (cost): a child whose edge has no room for its first model call', async () => {
    const team = await subscribedTeam();
    const planner = await createTestAgent(s.t.db, team.teamId, { script: [{ delegate: { to: 'worker', goal: 'work' } }, { finish: 'all done' }], ...priced });
    const worker = await createTestAgent(s.t.db, team.teamId, { script: [{ finish: 'worked' }], ...priced });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'worker', agent: worker },
      ],
      edges: [{ from: 'planner', to: 'worker', budget: { costMicros: 100 } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    const edgeId = run.edges['planner->worker']!;
    const [exhausted] = await received(team.secret, 'graph.edge.exhausted', (d) => d.runId === run.runId);
    expect(exhausted!.data).toMatchObject({
      runId: run.runId,
      edgeId,
      from: 'planner',
      to: 'worker',
      limits: ['costMicros'],
      reason: expect.stringContaining(`the budget of edge ${edgeId} needs`),
      ledger: { limitCostMicros: 100, reservedCostMicros: 0 },
    });
    const child = await s.t.db.session.findFirstOrThrow({ where: { runId: run.runId, nodeKey: 'worker' } });
    expect(exhausted!.data.sessionId).toBe(child.id);
    await received(team.secret, 'budget.exceeded', (d) => d.sessionId === child.id);
  });

  it('graph.edge.exhausted (calls): a delegation over an edge that has used its calls', async () => {
    const team = await subscribedTeam();
    const planner = await createTestAgent(s.t.db, team.teamId, {
      script: [{ delegate: { to: 'helper', goal: 'first' } }, { delegate: { to: 'helper', goal: 'second' } }, { finish: 'planned' }],
    });
    const helper = await createTestAgent(s.t.db, team.teamId, { script: [{ finish: 'helped' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'helper', agent: helper },
      ],
      edges: [{ from: 'planner', to: 'helper', budget: { calls: 1 } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    await waitForRun(s.t.db, run.runId, undefined, 30_000);
    const edgeId = run.edges['planner->helper']!;
    const [exhausted] = await received(team.secret, 'graph.edge.exhausted', (d) => d.runId === run.runId);
    expect(exhausted!.data).toMatchObject({
      runId: run.runId,
      sessionId: run.sessionId,
      edgeId,
      from: 'planner',
      to: 'helper',
      limits: ['calls'],
      reason: `edge ${edgeId} has used its budget of 1 calls`,
      ledger: { limitCalls: 1, calls: 1 },
    });
    // One occurrence, one delivery to this endpoint.
    expect(await s.t.db.webhookDelivery.count({ where: { endpointId: team.endpointId, eventType: 'graph.edge.exhausted' } })).toBe(1);
  });
});
