import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { testToolSpecs } from '../testing/test-tools';

const s = setUpRuntimeSuite('limits', { concurrency: 50 });
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const script = [{ calls: [{ tool: 'echo', args: { text: 'x' } }] }, { finish: 'done' }];

/** Samples how many of the team's runs are running at once until `until` settles; returns the maximum. */
async function maxRunning(where: { teamId: string; agentId?: string }, until: Promise<unknown>): Promise<number> {
  let max = 0;
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    max = Math.max(max, await s.t.db.run.count({ where: { ...where, status: 'running' } }));
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  return max;
}

describe('concurrency limits', () => {
  it('runs at most the team limit at once; the rest stay queued, then all complete', async () => {
    const teamId = await createTestTeam(s.t.db, { maxConcurrentRuns: 2 });
    const agent = await createTestAgent(s.t.db, teamId, { script, thinkMs: 250 });
    const runs = [];
    for (let i = 0; i < 6; i++) runs.push(await createTestRun(s.t.db, agent, { config }));
    for (const run of runs) await s.client.enqueue({ ...run, reason: 'start' });
    const all = Promise.all(runs.map((r) => waitForRun(s.t.db, r.runId, undefined, 30_000)));
    expect(await maxRunning({ teamId }, all)).toBe(2);
    expect((await all).map((r) => r.status)).toEqual(Array(6).fill('succeeded'));
  });

  it('applies an agent limit inside a roomier team limit', async () => {
    const teamId = await createTestTeam(s.t.db, { maxConcurrentRuns: 10 });
    const agent = await createTestAgent(s.t.db, teamId, { script, thinkMs: 250, maxConcurrentRuns: 1 });
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await createTestRun(s.t.db, agent, { config }));
    for (const run of runs) await s.client.enqueue({ ...run, reason: 'start' });
    const all = Promise.all(runs.map((r) => waitForRun(s.t.db, r.runId, undefined, 30_000)));
    expect(await maxRunning({ teamId, agentId: agent.agentId }, all)).toBe(1);
    expect((await all).every((r) => r.status === 'succeeded')).toBe(true);
  });

  it('does not let one team backlog starve another team', async () => {
    const busyTeam = await createTestTeam(s.t.db, { maxConcurrentRuns: 1 });
    const otherTeam = await createTestTeam(s.t.db, { maxConcurrentRuns: 1 });
    const busyAgent = await createTestAgent(s.t.db, busyTeam, { script, thinkMs: 200 });
    const otherAgent = await createTestAgent(s.t.db, otherTeam, { script, thinkMs: 200 });
    const backlog = [];
    for (let i = 0; i < 8; i++) backlog.push(await createTestRun(s.t.db, busyAgent, { config }));
    for (const run of backlog) await s.client.enqueue({ ...run, reason: 'start' });
    const other = await createTestRun(s.t.db, otherAgent, { config });
    await s.client.enqueue({ ...other, reason: 'start' });
    const otherDone = await waitForRun(s.t.db, other.runId, undefined, 30_000);
    const backlogDone = await Promise.all(backlog.map((r) => waitForRun(s.t.db, r.runId, undefined, 30_000)));
    const lastBacklog = Math.max(...backlogDone.map((r) => r.finishedAt!.getTime()));
    // The other team's run went while the backlog was still being worked off one at a time.
    expect(otherDone.finishedAt!.getTime()).toBeLessThan(lastBacklog);
    expect(backlogDone.every((r) => r.status === 'succeeded')).toBe(true);
  });
});
