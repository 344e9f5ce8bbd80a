import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import type { ApiDeps } from '../context';
import { callerAs, createAgentFixture, createTeamFixture, type AgentFixture, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
let agent: AgentFixture;

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId);
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('runs.create under the policy’s allowed model endpoints', () => {
  it('the built-in default and a policy without a models section allow every endpoint', async () => {
    const admin = await callerAs(deps, { userId: fx.members.admin.id });
    await expect(admin.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'default policy' })).resolves.toMatchObject({ runId: expect.any(String) });
    await admin.policies.save({ teamId: fx.teamId, document: { version: 1, default: 'deny' }, comment: 'no models section' });
    await expect(admin.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'no models section' })).resolves.toMatchObject({ runId: expect.any(String) });
  });

  it('refuses an agent whose endpoint the active policy does not allow, naming the rule, and writes nothing', async () => {
    const admin = await callerAs(deps, { userId: fx.members.admin.id });
    const endpoint = await db.db.modelEndpoint.findUniqueOrThrow({ where: { id: agent.endpointId } });
    await admin.policies.save({ teamId: fx.teamId, document: { version: 1, models: { allowedEndpoints: ['prod-*'] } }, comment: 'prod only' });
    const runs = await db.db.run.count({ where: { teamId: fx.teamId } });
    const jobs = (await live.jobs()).length;
    const operator = await callerAs(deps, { userId: fx.members.operator.id });
    await expect(operator.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'refused' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: `The team policy does not allow the model endpoint ${endpoint.name} of agent ${agent.agentName} (models.allowedEndpoints); an admin can allow it on the Policies page, or move the agent to an allowed endpoint`,
    });
    expect(await db.db.run.count({ where: { teamId: fx.teamId } })).toBe(runs);
    expect((await live.jobs()).length).toBe(jobs);
    // Allowing it (by name or glob) lets the run start.
    await admin.policies.save({ teamId: fx.teamId, document: { version: 1, models: { allowedEndpoints: ['prod-*', 'faux-*'] } }, comment: 'faux too' });
    await expect(operator.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'allowed' })).resolves.toMatchObject({ runId: expect.any(String) });
  });
});
