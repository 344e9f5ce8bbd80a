import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { readmeScreenshot } from './support/readme-screenshot';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

const RUN_TIMEOUT = 60_000;

// biome-ignore lint/performance/useDomNodeTextContent: a Playwright Locator, not a DOM node: the rendered text is what the user sees (textContent() also reads hidden text and may be null).
const value = async (page: Page, testId: string) => Number(await page.getByTestId(`${testId}-value`).innerText());

/**
 * Mission control against the real stack, without a reload: the seeded `demo-cleanup` agent's run
 * starts, parks on the `rm -rf build` approval and, once approved, finishes; the overview's
 * waiting-on-approval and pending-approval counts go up and down with it, live. Each figure's link
 * opens the filtered list behind it (the filter in the URL, kept on reload).
 */
test('the overview counts a run live as it starts, waits on an approval and finishes; every figure opens its filtered list', async ({
  page,
  request,
  demoTeam,
}) => {
  const teamId = demoTeam.id;
  const token = stack.bootstrapToken;
  const base = `/t/${demoTeam.slug}`;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', token, { teamId });
  const cleanup = agents.find((a) => a.name === 'demo-cleanup');
  if (!cleanup) throw new Error('the seed has no demo-cleanup agent');

  await page.goto(base);
  await expect(page.getByTestId('activity-live')).toHaveAttribute('data-connected', 'true');
  await expect(page.getByTestId('overview')).toBeVisible();
  const waitingBefore = await value(page, 'overview-waiting-approval');
  const pendingBefore = await value(page, 'overview-approvals');
  const activeBefore = await value(page, 'overview-active');
  const succeededBefore = await value(page, 'overview-succeeded');
  // A live worker with its load and a working sandbox.
  await expect(page.getByTestId('overview-worker').first()).toContainText('sandbox ok');
  await expect(page.getByTestId('overview-worker-load').first()).toHaveText(/^\d+ \/ \d+$/);

  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', token, {
    teamId,
    agentId: cleanup.id,
    goal: 'Clean the build directory (overview)',
  });
  await expect.poll(() => value(page, 'overview-waiting-approval'), { timeout: RUN_TIMEOUT }).toBe(waitingBefore + 1);
  await expect.poll(() => value(page, 'overview-approvals')).toBe(pendingBefore + 1);
  await expect.poll(() => value(page, 'overview-active')).toBe(activeBefore + 1);
  await expect(page.getByTestId('overview-agents-row').filter({ hasText: 'demo-cleanup' })).toContainText(/[1-9]\d* active/);
  await readmeScreenshot(page, 'overview');

  // Waiting on an approval → the runs list filtered to exactly that, kept in the URL and on reload.
  await page.getByTestId('overview-waiting-approval').click();
  await expect(page).toHaveURL(new RegExp(`${base}/runs\\?status=waiting&wait=approval$`));
  await expect(page.getByTestId('runs-filter-status')).toHaveValue('waiting');
  await expect(page.getByTestId('runs-filter-wait')).toHaveValue('approval');
  await expect(page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`)).toBeVisible();
  await expect(page.getByTestId('run-row-status')).toHaveText(Array(await page.getByTestId('run-row').count()).fill('waiting · approval'));
  await page.reload();
  await expect(page.getByTestId('runs-filter-wait')).toHaveValue('approval');
  await expect(page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`)).toBeVisible();

  // Pending approvals → the inbox, the oldest one opened at the top.
  await page.goto(base);
  const oldest = (await trpcQuery<{ approvals: { oldestId: string | null } }>(request, 'overview.get', token, { teamId })).approvals.oldestId;
  await page.getByTestId('overview-approvals-link').click();
  await expect(page).toHaveURL(new RegExp(`${base}/approvals\\?approval=${oldest}$`));
  await expect(page.getByTestId('approval-linked')).toHaveAttribute('data-approval-id', oldest!);

  // Approved, the run finishes: the overview's counts come back down without a reload.
  await page.goto(base);
  await expect(page.getByTestId('activity-live')).toHaveAttribute('data-connected', 'true');
  const approval = (await trpcQuery<{ items: Array<{ id: string }> }>(request, 'approvals.list', token, { teamId, status: 'pending', runId })).items[0]!;
  await trpcMutation(request, 'approvals.decide', token, { teamId, approvalId: approval.id, decision: 'approve', comment: 'overview spec' });
  await expect.poll(() => value(page, 'overview-waiting-approval'), { timeout: RUN_TIMEOUT }).toBe(waitingBefore);
  await expect.poll(() => value(page, 'overview-approvals')).toBe(pendingBefore);
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', token, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');
  await expect.poll(() => value(page, 'overview-succeeded'), { timeout: RUN_TIMEOUT }).toBe(succeededBefore + 1);
  await expect.poll(() => value(page, 'overview-active')).toBe(activeBefore);

  // Running, failed in 24 h, the busiest agent: each opens its list.
  await page.getByTestId('overview-running-link').click();
  await expect(page).toHaveURL(new RegExp(`${base}/runs\\?status=running$`));
  await expect(page.getByTestId('runs-filter-status')).toHaveValue('running');
  await page.goto(base);
  await page.getByTestId('overview-failed-link').click();
  await expect(page).toHaveURL(new RegExp(`${base}/runs\\?status=failed&since=24h$`));
  await expect(page.getByTestId('runs-filter-since')).toContainText('Finished in the last 24 hours');
  await page.getByTestId('runs-filter-since').getByRole('button', { name: 'Remove this filter' }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/runs\\?status=failed$`));
  await page.goto(base);
  await page.getByTestId('overview-agents-row').filter({ hasText: 'demo-cleanup' }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`${base}/runs\\?agent=${cleanup.id}&status=active$`));
  await expect(page.getByTestId('runs-filter-agent')).toHaveValue(cleanup.id);
  await expect(page.getByTestId('runs-filter-status')).toHaveValue('active');

  // The smaller figures are links too: queued, succeeded in 24 h (this run among them), paused.
  const opens = async (testId: string, query: string, status: string) => {
    await page.goto(base);
    await page.getByTestId(testId).click();
    await expect(page).toHaveURL(new RegExp(`${base}/runs\\?${query}$`));
    await expect(page.getByTestId('runs-filter-status')).toHaveValue(status);
  };
  await opens('overview-queued', 'status=queued', 'queued');
  await opens('overview-succeeded', 'status=succeeded&since=24h', 'succeeded');
  await expect(page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`)).toBeVisible();
  await opens('overview-paused', 'status=paused', 'paused');
  // Spend today against the last 7 days → the costs of those 7 days.
  await page.goto(base);
  await page.getByTestId('overview-spend-link').click();
  await expect(page).toHaveURL(new RegExp(`${base}/costs\\?days=7$`));
  await expect(page.getByTestId('costs-days')).toHaveValue('7');
});
