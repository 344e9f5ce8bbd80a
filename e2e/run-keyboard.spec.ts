import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * The run page without a mouse, over a finished run of the seeded `demo-steps` agent: `?` lists
 * the page's keys; j/k move focus through the timeline's rows; f forks at the focused event (a
 * blocked one says why, also in its tooltip); o opens the Files tab at that event; 1 and 2
 * switch tabs; b reaches the branches and m the message box. The picked branch and the compared
 * pair are in the URL, so a reload shows the same view.
 */
const RUN_TIMEOUT = 60_000;

async function finishedRun(request: APIRequestContext, teamId: string): Promise<{ runId: string; main: string }> {
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-steps');
  if (!agent) throw new Error('the seed has no demo-steps agent');
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: agent.id,
    goal: 'A run to walk through with the keyboard',
  });
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');
  const tree = await trpcQuery<{ mainSessionId: string }>(request, 'sessions.tree', stack.bootstrapToken, { teamId, runId });
  return { runId, main: tree.mainSessionId };
}

/** The seq of the timeline row that holds focus (null: focus is elsewhere). */
const focusedSeq = (page: Page) =>
  page.evaluate(() => {
    const row = document.activeElement?.closest('[data-testid="timeline-item"]');
    return row ? Number(row.getAttribute('data-seq')) : null;
  });

test('the run page works from the keyboard: rows, fork, files, tabs, branches, message; branch and compare in the URL', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 3);
  const { runId, main } = await finishedRun(request, demoTeam.id);
  const url = `/t/${demoTeam.slug}/runs/${runId}`;
  await page.goto(url);
  await page.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('timeline-item').last()).toBeVisible();

  // `?` lists the run page's keys.
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help.getByTestId('shortcuts-page')).toContainText('Next event');
  await expect(help.getByTestId('shortcuts-page')).toContainText('Fork from the focused event');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // f with no row focused says what to do.
  await page.keyboard.press('f');
  await expect(page.getByTestId('run-key-notice')).toHaveText(/Focus an event first/);

  // k focuses the last row in view, k again the one before it, j comes back.
  await page.keyboard.press('k');
  await expect.poll(() => focusedSeq(page)).not.toBeNull();
  const last = (await focusedSeq(page))!;
  await page.keyboard.press('k');
  await expect.poll(() => focusedSeq(page)).toBeLessThan(last);
  await page.keyboard.press('j');
  await expect.poll(() => focusedSeq(page)).toBe(last);

  // Up to a row that can be forked at: f opens the fork dialog there; Escape closes it.
  const forkable = async () => {
    const seq = await focusedSeq(page);
    if (seq === null) return false;
    const button = page.locator(`[data-testid="timeline-item"][data-seq="${seq}"] [data-testid="fork-from-here"]`).first();
    return (await button.getAttribute('aria-disabled')) === 'false';
  };
  for (let i = 0; i < 40 && !(await forkable()); i++) await page.keyboard.press('k');
  expect(await forkable()).toBe(true);
  const forkSeq = (await focusedSeq(page))!;
  await page.keyboard.press('f');
  const dialog = page.getByTestId('fork-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Fork from event #${forkSeq}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A blocked fork point says why: its button stays focusable and its tooltip gives the reason.
  const blocked = page.locator('[data-testid="fork-from-here"][aria-disabled="true"]').first();
  if ((await blocked.count()) > 0) {
    await blocked.focus();
    await expect(page.getByTestId('tooltip')).toBeVisible();
    await expect(page.getByTestId('tooltip')).not.toHaveText(/^Fork a new branch/);
  }

  // o: the Files tab at the focused event, in the URL.
  await page.locator(`[data-testid="timeline-item"][data-seq="${forkSeq}"]`).first().focus();
  await page.keyboard.press('o');
  await expect(page.getByTestId('run-tab-files')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`tab=files.*at=${forkSeq}|at=${forkSeq}.*tab=files`));
  // 1 and 2 switch tabs.
  await page.keyboard.press('1');
  await expect(page.getByTestId('run-tab-timeline')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('run-timeline')).toBeFocused();
  await page.keyboard.press('2');
  await expect(page.getByTestId('run-tab-files')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('1');

  // b: the picked branch in the tree; m: the message box.
  await page.keyboard.press('b');
  await expect(page.locator(`[data-testid="session-node"][data-session-id="${main}"] [data-testid="session-select"]`)).toBeFocused();
  await page.keyboard.press('m');
  await expect(page.getByTestId('run-message-input')).toBeFocused();
  await expect(page.getByTestId('run-message-input')).toHaveValue('');

  // A branch (forked over the API) picked and compared: both in the URL, kept over a reload.
  const { sessionId: branch } = await trpcMutation<{ sessionId: string }>(request, 'sessions.fork', stack.bootstrapToken, {
    teamId: demoTeam.id,
    sessionId: main,
    atEvent: forkSeq,
  });
  await page.goto(url);
  const branchNode = page.locator(`[data-testid="session-node"][data-session-id="${branch}"]`);
  await branchNode.getByTestId('session-select').click();
  await expect(page).toHaveURL(new RegExp(`session=${branch}`));
  await page.locator(`[data-testid="session-node"][data-session-id="${main}"] [data-testid="session-compare-toggle"]`).check();
  await branchNode.getByTestId('session-compare-toggle').check();
  await expect(page).toHaveURL(/compare=/);
  await page.reload();
  await expect(branchNode.getByTestId('session-select')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('compare-divergence')).toHaveAttribute('data-diverged-after', String(forkSeq));
  await expect(branchNode.getByTestId('session-compare-toggle')).toBeChecked();
});
