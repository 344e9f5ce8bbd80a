import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * Effect-based governance in the browser: the seeded `demo-script-cleanup` agent deletes build/
 * from a Python script it wrote, which no command-line check can see. The call runs; the policy's
 * effect check rolls the deletion back and holds it. The approver sees what the call changed and
 * its diff in the inbox, rejects, and the run goes on with build/ still there.
 */
const RUN_TIMEOUT = 60_000;

interface RunEvent {
  type: string;
  payload: Record<string, unknown>;
}

test('a deletion hidden in a script is held with its diff; rejecting keeps it rolled back', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-script-cleanup');
  if (!agent) throw new Error(`the seed has no demo-script-cleanup agent; agents: ${agents.map((a) => a.name).join(', ')}`);

  await page.goto('/t/demo/approvals');
  await expect(page.getByTestId('activity-live')).toHaveAttribute('data-connected', 'true');
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: agent.id,
    goal: 'Tidy up the workspace',
  });

  // The call ran and its result waits (the run parks on it)...
  const status = async () => await trpcQuery<{ status: string; waitReason: string | null }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId });
  const events = async () => (await trpcQuery<{ events: RunEvent[] }>(request, 'runs.events', stack.bootstrapToken, { teamId, runId, limit: 500 })).events;
  const parked = async () => {
    const run = await status();
    if (run.status === 'waiting' || run.status === 'succeeded' || run.status === 'failed') {
      // Say what the run did when it is not the expected wait.
      const tail = (await events()).slice(-4).map((e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 200)}`);
      return `${run.status}/${run.waitReason}${run.status === 'waiting' ? '' : `: ${tail.join(' | ')}`}`;
    }
    return run.status;
  };
  await expect.poll(parked, { timeout: 30_000 }).toBe('waiting/approval');
  // ...and the item says what it changed, with the diff from the store.
  const item = page.getByTestId('approval-item').filter({ has: page.locator(`a[href="/t/demo/runs/${runId}"]`) });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item.getByTestId('approval-command')).toHaveText('$ python3 clean.py');
  await expect(item.getByTestId('approval-rule')).toContainText('effect-deletes');
  await expect(item.getByTestId('approval-effect-counts')).toHaveText('deleted 2');
  await expect(item.getByTestId('approval-effect-files')).toContainText('deleted build/out.o');
  // The diff, file by file: the deleted file with its removed line.
  const deleted = item.getByTestId('approval-effect-diff').locator('[data-testid="call-diff-file"][data-path="build/out.o"]');
  await expect(deleted.getByTestId('diff-file-name')).toHaveText('deleted build/out.o');
  await expect(deleted).toHaveAttribute('data-removed', '1');
  await expect(deleted.getByTestId('call-diff-lines')).toContainText('object code');
  // Its arguments cannot be edited: the call already ran.
  await expect(item.getByTestId('approval-edit')).toHaveCount(0);

  await item.getByTestId('approval-comment').fill('keep the build output');
  await item.getByTestId('approval-reject').click();
  await expect.poll(async () => (await status()).status, { timeout: RUN_TIMEOUT }).toBe('succeeded');

  // The deletion stayed undone: the last listing still shows build/, and the model was told why.
  const log = await events();
  expect(log.find((e) => e.type === 'effect.decided')?.payload).toMatchObject({ decision: 'require_approval', ruleId: 'effect-deletes' });
  const outputs = log.filter((e) => e.type === 'tool.finished').map((e) => String(e.payload.output));
  expect(outputs.at(-1)).toContain('out.o');
});
