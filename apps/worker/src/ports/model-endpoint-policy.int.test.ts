import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';

// The worker checks the team policy's models.allowedEndpoints before every model call: runs.create
// refuses a disallowed endpoint up front, but the policy may change while a run lives.
const s = setUpRuntimeSuite('model-endpoint-policy', { leaseTtlMs: 3000 });

const allowing = (endpoints: string[]) => ({ version: 1, default: 'allow', models: { allowedEndpoints: endpoints } });
const eventsOf = (runId: string) => s.t.db.event.findMany({ where: { runId }, orderBy: { seq: 'asc' } });

describe('model endpoints under the team policy, in the worker', () => {
  it('a run on an endpoint the policy does not allow makes no model call and fails naming the rule', async () => {
    const teamId = await createTestTeam(s.t.db, { policy: allowing(['prod-*']) });
    const agent = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'never said' }] });
    const ids = await createTestRun(s.t.db, agent, {});
    await s.client.enqueue({ ...ids, reason: 'start' });
    const done = await waitForRun(s.t.db, ids.runId, undefined, 20_000);
    expect(done.status).toBe('failed');
    const events = await eventsOf(ids.runId);
    const failed = events.find((e) => e.type === 'model.failed');
    expect(JSON.stringify(failed?.payload)).toMatch(
      /not called: the team policy does not allow the model endpoint faux-[0-9a-f]+ \(models\.allowedEndpoints\)/,
    );
    expect(events.some((e) => e.type === 'model.responded')).toBe(false);
  }, 30_000);

  it('a policy that stops allowing the endpoint mid-run stops the next model call', async () => {
    const teamId = await createTestTeam(s.t.db, { policy: allowing(['*']) });
    // The first answer asks for a 3 s tool call; the policy changes meanwhile (the worker's policy cache lives 2 s).
    const agent = await createTestAgent(s.t.db, teamId, { script: [{ calls: [{ tool: 'slow', args: { ms: 3000 } }] }, { finish: 'never said' }] });
    const ids = await createTestRun(s.t.db, agent, { config: { tools: testToolSpecs, toolLoading: 'eager' } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    await waitFor(
      () => s.t.db.event.findFirst({ where: { runId: ids.runId, type: 'tool.started' } }).then((e) => e ?? undefined),
      20_000,
      'the slow call to start',
    );
    const policy = await s.t.db.policy.findFirstOrThrow({ where: { teamId } });
    await s.t.db.policyVersion.create({ data: { policyId: policy.id, version: 2, document: allowing(['prod-*']) } });
    await s.t.db.policy.update({ where: { id: policy.id }, data: { activeVersion: 2 } });
    const done = await waitForRun(s.t.db, ids.runId, undefined, 20_000);
    expect(done.status).toBe('failed');
    const types = (await eventsOf(ids.runId)).map((e) => e.type);
    expect(types.filter((t) => t === 'model.responded')).toHaveLength(1);
    expect(types.indexOf('model.failed')).toBeGreaterThan(types.indexOf('tool.finished'));
  }, 40_000);
});
