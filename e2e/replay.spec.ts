import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * Replay from the run page, against the real stack: a finished run of the seeded `demo-steps`
 * agent (`faux-steps`, twelve scripted steps with the sandboxed tools) is replayed on the seeded
 * `faux-steps-alt`, which agrees for six steps and then logs something else. The compare view
 * opens with the replay beside the original: results served from the log, the divergence at
 * turn 7 highlighted on both sides, and each side's tokens and cost.
 */
const RUN_TIMEOUT = 60_000;

test('replay a finished run on another endpoint from the run page; the compare view shows the divergence', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 3);
  const teamId = demoTeam.id;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-steps');
  if (!agent) throw new Error(`the seed has no demo-steps agent; agents: ${agents.map((a) => a.name).join(', ')}`);
  const endpoints = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.endpointOptions', stack.bootstrapToken, { teamId });
  const alt = endpoints.find((e) => e.name === 'faux-steps-alt');
  if (!alt) throw new Error(`the seed has no faux-steps-alt endpoint; endpoints: ${endpoints.map((e) => e.name).join(', ')}`);
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, { teamId, agentId: agent.id, goal: '/steps replay' });
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');

  await page.goto(`/t/demo/runs/${runId}`);
  await expect(page.getByTestId('session-node')).toHaveCount(1);
  await page.getByTestId('session-replay').click();
  const dialog = page.getByTestId('replay-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('replay-endpoint').selectOption(alt.id);
  await page.getByTestId('replay-mode-stop').check();
  await page.getByTestId('replay-submit').click();
  await expect(dialog).toHaveCount(0);

  // The replay is a second branch of the run, shown beside the original in the compare view.
  await expect(page.getByTestId('session-node')).toHaveCount(2);
  const compare = page.getByTestId('branch-compare');
  await expect(compare).toBeVisible();
  const report = compare.locator('[data-testid="compare-replay"][data-side="b"]');
  await expect(report).toHaveAttribute('data-diverged-turn', '7', { timeout: RUN_TIMEOUT });
  await expect(report).toHaveAttribute('data-mode', 'stop');
  await expect(report).toHaveAttribute('data-matched-turns', '6');
  // Step 1 loads the tools (the engine does that itself); steps 2–6 are served from the log.
  await expect(report).toHaveAttribute('data-served', '5');
  await expect(report.getByTestId('compare-replay-recorded')).toContainText('checked part 2');
  await expect(report.getByTestId('compare-replay-new')).toContainText('another way');

  // The divergence point is highlighted on both sides: the replay's report and turn, the recorded turn.
  const sideA = compare.getByTestId('compare-side-a');
  const sideB = compare.getByTestId('compare-side-b');
  await expect(sideB.locator('[data-testid="compare-event"][data-type="replay.diverged"]')).toHaveAttribute('data-diverged', 'true');
  await expect(sideB.locator('[data-testid="compare-event"][data-diverged="true"][data-type="model.responded"]')).toHaveCount(1);
  await expect(sideA.locator('[data-testid="compare-event"][data-diverged="true"][data-type="model.responded"]')).toHaveCount(1);
  await expect(sideB.locator('[data-testid="compare-event"][data-type="tool.finished"]').first()).toContainText('replayed from the log');
  await expect(sideB.locator('[data-testid="compare-event"][data-type="tool.started"]')).toHaveCount(0);

  // Tokens and cost side by side: the replay made 7 model calls, the original 13.
  const spendA = compare.getByTestId('compare-spend-a');
  const spendB = compare.getByTestId('compare-spend-b');
  await expect(spendA).toContainText('13 model call(s)');
  await expect(spendB).toContainText('7 model call(s)');
  expect(Number(await spendB.getAttribute('data-cost-micros'))).toBeGreaterThan(0);
  expect(Number(await spendB.getAttribute('data-cost-micros'))).toBeLessThan(Number(await spendA.getAttribute('data-cost-micros')));
});
