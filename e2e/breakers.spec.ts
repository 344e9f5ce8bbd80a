import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * A breaker against the real stack: the team's policy limits a session to 1 micro-dollar a minute,
 * so the seeded `demo-steps` agent (a priced faux endpoint) trips `spendRate` before its first
 * governed call runs. The inbox shows the breaker with its reason and numbers; approving in the browser
 * resumes the session, which trips again a turn later (the window restarted); rejecting there
 * cancels the run. The original policy is saved back afterwards for the other specs.
 */
test('a tripped breaker pauses the run into the inbox with its reason; approve resumes it, reject cancels it', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const token = stack.bootstrapToken;
  const active = await trpcQuery<{ document: Record<string, unknown> }>(request, 'policies.get', token, { teamId });
  const original = active.document;
  const limited = { ...original, breakers: { spendRate: { perSession: { costMicros: 1 } } } };
  await trpcMutation(request, 'policies.save', token, { teamId, document: limited, comment: 'e2e: a spend-rate breaker of 1 micro-dollar a minute' });

  try {
    const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', token, { teamId });
    const agent = agents.find((a) => a.name === 'demo-steps');
    if (!agent) throw new Error('the seed has no demo-steps agent');
    const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', token, { teamId, agentId: agent.id, goal: '/steps breakers' });
    const runStatus = async () => (await trpcQuery<{ status: string }>(request, 'runs.get', token, { teamId, runId })).status;

    await page.goto(`/t/${demoTeam.slug}/approvals`);
    await expect(page.getByTestId('activity-live')).toHaveAttribute('data-connected', 'true');
    const pending = page
      .getByTestId('approval-item')
      .filter({ has: page.locator(`a[href="/t/${demoTeam.slug}/runs/${runId}"]`) })
      .and(page.locator('[data-status="pending"]'));

    // The first governed call (write_file; loading tools is the engine's own) waits: the turns before it spent more than the limit.
    await expect(pending).toHaveCount(1, { timeout: 30_000 });
    await expect(pending.getByTestId('approval-breaker')).toHaveAttribute('data-breaker', 'spendRate');
    await expect(pending.getByTestId('approval-breaker')).toContainText('Breaker tripped: Spend rate (spendRate)');
    await expect(pending.getByTestId('approval-breaker-numbers')).toContainText('micro-dollars per minute (limit 1), the last minute');
    await expect(pending.getByTestId('approval-reason')).toContainText(
      /this session spent \d+ micro-dollars in the last minute, more than its limit of 1 per minute/,
    );
    await expect(pending.getByTestId('approval-tool')).toHaveText('write_file');
    expect(await runStatus()).toBe('waiting');

    await pending.getByTestId('approval-comment').fill('one more step');
    await pending.getByTestId('approval-approve').click();
    // Resumed: write_file ran, the next turn spent again and the breaker tripped on its call.
    await expect(pending.getByTestId('approval-tool')).toHaveText('list_files', { timeout: 30_000 });
    await expect(pending).toHaveCount(1);

    await pending.getByTestId('approval-comment').fill('it spends too fast');
    await pending.getByTestId('approval-reject').click();
    await expect.poll(runStatus, { timeout: 30_000 }).toBe('cancelled');
    await expect(pending).toHaveCount(0);

    const trips = await trpcQuery<{ rows: Array<{ action: string }> }>(request, 'audit.list', token, { teamId, action: 'breaker.tripped', targetId: runId });
    expect(trips.rows).toHaveLength(2);
  } finally {
    await trpcMutation(request, 'policies.save', token, { teamId, document: original, comment: 'e2e: restore after the breakers spec' });
  }
});
