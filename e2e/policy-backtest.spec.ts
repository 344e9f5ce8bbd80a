import { codeEditor } from './support/code-editor';
import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * The Backtest panel against the real stack: the seeded `demo-cleanup` agent asks for
 * `rm -rf build`, which the worker decides (require_approval) and records. A draft that denies
 * everything, backtested over the last week, moves that call from require approval to deny; the
 * cell's examples link to the run.
 */
test('a draft is backtested over recorded calls: progress, the matrix, and an example linking to its run', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-cleanup');
  if (!agent) throw new Error('the seed has no demo-cleanup agent');
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: agent.id,
    goal: 'Clean the build directory',
  });
  const status = async () => trpcQuery<{ status: string; waitReason: string | null }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId });
  await expect
    .poll(
      async () => {
        const run = await status();
        return `${run.status}/${run.waitReason}`;
      },
      { timeout: 30_000 },
    )
    .toBe('waiting/approval');

  await page.goto(`/t/${demoTeam.slug}/policies`);
  const editor = codeEditor(page, 'policy-text');
  await expect(page.getByTestId('policy-text-value')).not.toHaveValue('');
  await editor.fill(JSON.stringify({ version: 1, name: 'deny-all', default: 'deny', rules: [] }, null, 2));
  await expect(page.getByTestId('policy-validity')).toHaveText('Valid');

  // The window: from just before this run (the browser's local time, as the input takes it).
  const since = await page.evaluate(() => {
    const d = new Date(Date.now() - 3 * 60_000);
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  });
  await page.getByTestId('backtest-since').fill(since);
  await page.getByTestId('backtest-run').click();
  await expect(page.getByTestId('backtest-result')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('backtest-summary')).toContainText('recorded call');
  const cell = page.getByTestId('backtest-cell-require_approval-deny');
  await expect(cell).toBeEnabled();
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright Locator, not a DOM node: the rendered text is what the user sees (textContent() also reads hidden text and may be null).
  expect(Number((await cell.innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
  // Nothing is allowed under the draft.
  await expect(page.getByTestId('backtest-cell-allow-allow')).toHaveText('0');
  await cell.click();
  const detail = page.getByTestId('backtest-cell-detail');
  await expect(detail.getByTestId('backtest-rules')).toContainText('shell-destructive → default');
  await expect(detail.getByTestId('backtest-example').first()).toBeVisible();

  // The run's call is among the examples, linking to its run.
  const link = detail.locator(`a[href="/t/${demoTeam.slug}/runs/${runId}"]`).first();
  await expect(link).toBeVisible();
  await expect(link).toContainText(/event \d+/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/t/${demoTeam.slug}/runs/${runId}$`));
  await expect(page.getByTestId('run-status')).toBeVisible();

  await trpcMutation(request, 'runs.cancel', stack.bootstrapToken, { teamId, runId });
});
