import { describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });

describe('runs.create under the policy’s allowed model endpoints', () => {
  it('the built-in default and a policy without a models section allow every endpoint', async () => {
    const admin = await tb.as('admin');
    await expect(admin.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'default policy' })).resolves.toMatchObject({
      runId: expect.any(String),
    });
    await admin.policies.save({ teamId: tb.fx.teamId, document: { version: 1, default: 'deny' }, comment: 'no models section' });
    await expect(admin.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'no models section' })).resolves.toMatchObject({
      runId: expect.any(String),
    });
  });

  it('refuses an agent whose endpoint the active policy does not allow, naming the rule, and writes nothing', async () => {
    const admin = await tb.as('admin');
    const endpoint = await tb.db.modelEndpoint.findUniqueOrThrow({ where: { id: tb.agent.endpointId } });
    await admin.policies.save({ teamId: tb.fx.teamId, document: { version: 1, models: { allowedEndpoints: ['prod-*'] } }, comment: 'prod only' });
    const runs = await tb.db.run.count({ where: { teamId: tb.fx.teamId } });
    const jobs = (await tb.live.jobs()).length;
    const operator = await tb.as('operator');
    await expect(operator.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'refused' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: `The team policy does not allow the model endpoint ${endpoint.name} of agent ${tb.agent.agentName} (models.allowedEndpoints); an admin can allow it on the Policies page, or move the agent to an allowed endpoint`,
    });
    expect(await tb.db.run.count({ where: { teamId: tb.fx.teamId } })).toBe(runs);
    expect((await tb.live.jobs()).length).toBe(jobs);
    // Allowing it (by name or glob) lets the run start.
    await admin.policies.save({ teamId: tb.fx.teamId, document: { version: 1, models: { allowedEndpoints: ['prod-*', 'faux-*'] } }, comment: 'faux too' });
    await expect(operator.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'allowed' })).resolves.toMatchObject({
      runId: expect.any(String),
    });
  });
});
