import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { readmeScreenshot } from './support/readme-screenshot';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';
import { sessionEvents, toolCall } from './support/workspaces';

/**
 * The run page's Files tab over a finished run of the seeded `demo-steps` agent, whose script
 * writes notes/plan.md with `write_file` (all todo) and later marks part 1 done with `edit_file`:
 * the file at the write's event (highlighted as markdown), not there at an earlier event, and the
 * diff each call made. The tab, event and path are in the URL, so a reload shows the same view.
 */
const RUN_TIMEOUT = 60_000;

async function finishedStepsRun(request: APIRequestContext, teamId: string): Promise<{ runId: string; main: string }> {
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-steps');
  if (!agent) throw new Error(`the seed has no demo-steps agent; agents: ${agents.map((a) => a.name).join(', ')}`);
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: agent.id,
    goal: 'Write the plan for the Files tab',
  });
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');
  const tree = await trpcQuery<{ mainSessionId: string }>(request, 'sessions.tree', stack.bootstrapToken, { teamId, runId });
  return { runId, main: tree.mainSessionId };
}

test('the Files tab shows the file a write_file call wrote, at its event and not before, and each call’s diff', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const { runId, main } = await finishedStepsRun(request, demoTeam.id);
  const { events } = await sessionEvents(request, demoTeam.id, main);
  const write = toolCall(events, (name, args) => name === 'write_file' && args.path === 'notes/plan.md');
  const edit = toolCall(events, (name, args) => name === 'edit_file' && args.new_string === 'part 1: done');

  // The README's run page: this run's timeline at its end.
  if (process.env.E2E_README_SCREENSHOTS === '1') {
    await page.goto(`/t/demo/runs/${runId}`);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    await expect(page.getByTestId('timeline-item').last()).toBeVisible();
    await readmeScreenshot(page, 'run-page');
  }

  // A shared link opens the tab (the URL is read once the page is interactive).
  await page.goto(`/t/demo/runs/${runId}?tab=files`);
  await expect(page.getByTestId('run-tab-files')).toHaveAttribute('aria-selected', 'true');
  const files = page.getByTestId('run-files');
  await expect(files).toHaveAttribute('data-session-id', main);
  const panel = files.getByTestId('files-panel');
  const at = panel.getByTestId('files-at');

  // The write, picked among the calls that changed files: the plan as it wrote it, highlighted.
  const picker = files.getByTestId('run-files-change');
  await expect(picker.locator('option', { hasText: `#${write.finished} write_file notes/plan.md` })).toHaveCount(1);
  await expect(picker.locator('option', { hasText: 'shell cat notes/plan.md' })).toHaveCount(0);
  await picker.selectOption(String(write.finished));
  await expect(at).toHaveAttribute('data-at-event', String(write.finished));
  await expect(at).toHaveAttribute('data-latest', 'false');
  await panel.locator('[data-testid="files-entry"][data-path="notes"]').getByTestId('files-entry-open').click();
  await expect(panel.locator('[data-testid="files-entry"][data-path="notes/summary.md"]')).toHaveCount(0);
  await panel.locator('[data-testid="files-entry"][data-path="notes/plan.md"]').getByTestId('files-entry-open').click();
  const content = panel.getByTestId('file-content');
  await expect(content).toHaveText('# Plan\n- part 1: todo\n- part 2: todo\n- part 3: todo\n');
  await expect(content).toHaveAttribute('data-language', 'markdown');
  await expect(content.locator('.hljs-section')).toHaveText('# Plan');

  // Its diff: the whole file added, four lines.
  const diff = files.getByTestId('call-diff');
  await expect(diff).toHaveAttribute('data-at-event', String(write.finished));
  const planDiff = diff.locator('[data-testid="call-diff-file"][data-path="notes/plan.md"]');
  await expect(planDiff).toHaveAttribute('data-added', '4');
  await expect(planDiff).toHaveAttribute('data-removed', '0');
  await expect(planDiff).toContainText('added notes/plan.md');
  await expect(planDiff.getByTestId('call-diff-lines')).toContainText('- part 3: todo');
  await expect(diff.getByTestId('call-diff-file')).toHaveCount(1);

  // The view is in the URL: a reload opens the same tab, event and file.
  await expect(page).toHaveURL(new RegExp(`[?&]at=${write.finished}(&|$)`));
  await expect(page).toHaveURL(/[?&]path=notes%2Fplan\.md(&|$)/);
  await page.reload();
  await expect(page.getByTestId('run-tab-files')).toHaveAttribute('aria-selected', 'true');
  await expect(at).toHaveAttribute('data-at-event', String(write.finished));
  await expect(content).toContainText('- part 1: todo');
  await expect(planDiff).toHaveAttribute('data-added', '4');

  // When the write was only requested, the file does not exist yet, and that event made no diff.
  await panel.getByTestId('files-at-input').fill(String(write.requested));
  await panel.getByTestId('files-at-go').click();
  await expect(at).toHaveAttribute('data-at-event', String(write.requested));
  await expect(panel.getByTestId('files-not-found')).toContainText('notes/plan.md does not exist at this event');
  await expect(files.getByTestId('run-files-diff-none')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]at=${write.requested}(&|$)`));

  // The edit: one line changed, in the file and in its diff.
  await files.getByTestId('run-files-change').selectOption(String(edit.finished));
  await expect(at).toHaveAttribute('data-at-event', String(edit.finished));
  await expect(content).toContainText('- part 1: done');
  await expect(content).toContainText('- part 2: todo');
  await expect(diff).toHaveAttribute('data-at-event', String(edit.finished));
  await expect(planDiff).toHaveAttribute('data-added', '1');
  await expect(planDiff).toHaveAttribute('data-removed', '1');
  await expect(planDiff).not.toContainText('added notes/plan.md');
  await expect(planDiff.getByTestId('call-diff-lines')).toContainText('- part 1: done');
  await expect(planDiff.getByTestId('call-diff-lines')).toContainText('- part 1: todo');

  // Back to the timeline: the tab leaves the URL, the timeline is there as it was; and to Files again.
  await page.getByTestId('run-tab-timeline').click();
  await expect(page.getByTestId('run-timeline')).toBeVisible();
  await expect(page).not.toHaveURL(/[?&]tab=files/);
  await page.getByTestId('run-tab-files').click();
  await expect(page).toHaveURL(/[?&]tab=files(&|$)/);
  await expect(planDiff).toHaveAttribute('data-added', '1');
});
