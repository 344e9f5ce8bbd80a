import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { revealRow, scanTimeline } from './support/timeline';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * Session trees in the browser, against the real stack: a finished run of the seeded `faux-steps`
 * endpoint (a dozen scripted turns) is forked from a middle event of the run page's one timeline
 * with a new message, the new branch runs live in that timeline (the picked branch drives it),
 * the tree shows both branches, compare shows where they diverge, and the branch is promoted to
 * the run's main line.
 */
const RUN_TIMEOUT = 60_000;

interface TreeView {
  mainSessionId: string;
  sessions: Array<{ id: string; parentId: string | null; status: string; isMain: boolean }>;
}

async function finishedRun(request: APIRequestContext, teamId: string): Promise<string> {
  const endpoints = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.endpointOptions', stack.bootstrapToken, { teamId });
  const endpoint = endpoints.find((e) => e.name === 'faux-steps');
  if (!endpoint) throw new Error(`the seed has no faux-steps endpoint; endpoints: ${endpoints.map((e) => e.name).join(', ')}`);
  const agent = await trpcMutation<{ id: string }>(request, 'agents.create', stack.bootstrapToken, {
    teamId,
    name: unique('e2e-branches'),
    endpointId: endpoint.id,
  });
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: agent.id,
    goal: 'Walk through the steps',
  });
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');
  return runId;
}

test('fork a finished run from a middle event with a new message, compare the branches, promote the new one', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 3);
  const runId = await finishedRun(request, demoTeam.id);
  const tree = () => trpcQuery<TreeView>(request, 'sessions.tree', stack.bootstrapToken, { teamId: demoTeam.id, runId });
  const main = (await tree()).mainSessionId;

  await page.goto(`/t/demo/runs/${runId}`);
  await expect(page.getByTestId('session-node')).toHaveCount(1);
  await expect(page.locator(`[data-testid="session-node"][data-session-id="${main}"]`)).toHaveAttribute('data-main', 'true');
  const timeline = page.getByTestId('run-timeline');
  await expect(timeline.getByTestId('timeline-item').last()).toHaveAttribute('data-kind', 'finished');
  // The tree lists branches, not events: the timeline is the only list of them.
  await expect(page.getByTestId('sessions-panel').getByTestId('timeline-item')).toHaveCount(0);

  // A middle event the engine can fork at (its button is enabled; in-flight points are disabled with the reason).
  await timeline.evaluate((el) => el.scrollTo({ top: 0 }));
  const forkable = timeline.locator('[data-testid="timeline-item"]:has([data-testid="fork-from-here"][aria-disabled="false"])');
  await expect(forkable.nth(2)).toBeAttached();
  const count = await forkable.count();
  expect(count).toBeGreaterThan(2);
  const middle = forkable.nth(Math.floor(count / 2));
  const atSeq = Number(await middle.getAttribute('data-seq'));
  // The dialog takes focus, keeps Tab inside, and Escape closes it with focus back on its opener.
  // Pinned by its event, not its place: the list is virtual, and which rows are drawn may change.
  const opener = timeline.locator(`[data-testid="timeline-item"][data-seq="${atSeq}"]`).getByTestId('fork-from-here');
  await opener.click();
  await expect(page.getByTestId('fork-message')).toBeFocused();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  expect(await page.getByTestId('fork-dialog').evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('fork-dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
  await opener.click();
  await expect(page.getByTestId('fork-dialog')).toContainText(`#${atSeq}`);
  await page.getByTestId('fork-message').fill('Take a different route from here.');
  await page.getByTestId('fork-submit').click();
  await expect(page.getByTestId('fork-dialog')).toHaveCount(0);

  // Two branches; the new one is selected and runs live to the end.
  await expect(page.getByTestId('session-node')).toHaveCount(2);
  const branch = (await tree()).sessions.find((s) => s.id !== main)!;
  expect(branch.parentId).toBe(main);
  const branchNode = page.locator(`[data-testid="session-node"][data-session-id="${branch.id}"]`);
  await expect(branchNode).toContainText(`from #${atSeq}`);
  await expect(page.getByTestId('branch-detail')).toHaveAttribute('data-session-id', branch.id);
  await expect(branchNode).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });
  // The timeline now shows the picked branch: the inherited events, the fork, its message, its own end.
  const line = async () => {
    const rows = await scanTimeline(timeline);
    return {
      forked: rows.filter((r) => r.seq === atSeq + 1 && r.text.includes('Branch forked')).length,
      message: rows.filter((r) => r.text.includes('Take a different route')).length,
      finished: rows.filter((r) => r.kind === 'finished').length,
    };
  };
  await expect.poll(line).toEqual({ forked: 1, message: 1, finished: 1 });
  // Picking the main line shows its events only: the branch's are not mixed into it.
  const mainNode = page.locator(`[data-testid="session-node"][data-session-id="${main}"]`);
  await mainNode.getByTestId('session-select').click();
  await expect(page.getByTestId('branch-detail')).toHaveAttribute('data-session-id', main);
  await expect.poll(line).toEqual({ forked: 0, message: 0, finished: 1 });

  // Compare: the branches share the events up to the fork point and diverge after it.
  await page.locator(`[data-testid="session-node"][data-session-id="${main}"] [data-testid="session-compare-toggle"]`).check();
  await branchNode.getByTestId('session-compare-toggle').check();
  await expect(page.getByTestId('compare-divergence')).toHaveAttribute('data-diverged-after', String(atSeq));
  await expect(page.getByTestId('compare-side-b').getByTestId('compare-event').first()).toHaveAttribute('data-seq', String(atSeq + 1));
  await expect(page.getByTestId('compare-side-a').getByTestId('compare-event').first()).toHaveAttribute('data-seq', String(atSeq + 1));
  await expect(page.getByTestId('compare-files')).toBeVisible();

  // Promote: the main line moves to the branch; the old one stays in the tree.
  await branchNode.getByTestId('session-select').click();
  await page.getByTestId('session-promote').click();
  await expect(branchNode).toHaveAttribute('data-main', 'true');
  await expect(page.locator(`[data-testid="session-node"][data-session-id="${main}"]`)).toHaveAttribute('data-main', 'false');
  expect((await tree()).mainSessionId).toBe(branch.id);
  // ...and now that line is the branch: its message is in the timeline, after the inherited events.
  await expect.poll(line).toEqual({ forked: 1, message: 1, finished: 1 });
  await revealRow(timeline, timeline.getByTestId('timeline-message').filter({ hasText: 'Take a different route' }));
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
});

test('a tree of 100 branches renders and stays usable', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 3);
  const runId = await finishedRun(request, demoTeam.id);
  const main = (await trpcQuery<TreeView>(request, 'sessions.tree', stack.bootstrapToken, { teamId: demoTeam.id, runId })).mainSessionId;
  const log = await trpcQuery<{ lastSeq: number }>(request, 'sessions.events', stack.bootstrapToken, { teamId: demoTeam.id, sessionId: main, limit: 1 });
  // Forks of the finished end: each branch reopens, has nothing new to do and finishes at once.
  for (let i = 0; i < 100; i++) {
    await trpcMutation(request, 'sessions.fork', stack.bootstrapToken, { teamId: demoTeam.id, sessionId: main, atEvent: log.lastSeq });
  }
  const started = Date.now();
  await page.goto(`/t/demo/runs/${runId}`);
  await expect(page.getByTestId('session-tree')).toHaveAttribute('data-count', '101');
  await expect(page.getByTestId('session-node')).toHaveCount(101);
  expect(Date.now() - started).toBeLessThan(15_000);
  const last = page.getByTestId('session-node').last();
  const lastId = await last.getAttribute('data-session-id');
  await last.getByTestId('session-select').click();
  await expect(page.getByTestId('branch-detail')).toHaveAttribute('data-session-id', lastId!);
  await expect(page.getByTestId('run-timeline').getByTestId('timeline-item').last()).toHaveAttribute('data-kind', /finished|notice/);
  await expect(last).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });
});
