import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

const RUN_TIMEOUT = 60_000;

/**
 * The inbox without a mouse, and filters that survive a reload: a seeded `demo-cleanup` run waits
 * on its `rm -rf build` approval; `?status=pending` opens the inbox filtered; `?` lists the keys;
 * `g a` navigates (and does not approve); `j` focuses the approval, `x` selects it, `a` approves
 * it. The audit log's filters are in the URL too.
 */
test('approvals are decided from the keyboard, `?` lists the keys, and inbox and audit filters live in the URL', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const token = stack.bootstrapToken;
  const base = `/t/${demoTeam.slug}`;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', token, { teamId });
  const cleanup = agents.find((a) => a.name === 'demo-cleanup');
  if (!cleanup) throw new Error('the seed has no demo-cleanup agent');
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', token, {
    teamId,
    agentId: cleanup.id,
    goal: 'Clean the build directory (keyboard)',
  });
  const pending = async () => (await trpcQuery<{ items: Array<{ id: string; status: string }> }>(request, 'approvals.list', token, { teamId, runId })).items;
  await expect.poll(async () => (await pending()).filter((a) => a.status === 'pending').length, { timeout: RUN_TIMEOUT }).toBe(1);
  const approvalId = (await pending())[0]!.id;

  await page.goto(`${base}/approvals?status=pending`);
  await page.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
  await expect(page.getByTestId('approvals-filter')).toHaveValue('pending');
  await page.reload();
  await page.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
  await expect(page.getByTestId('approvals-filter')).toHaveValue('pending');
  const item = page.locator(`[data-testid="approval-item"][data-approval-id="${approvalId}"]`);
  await expect(item).toBeVisible();

  // `?` opens the list of keys in a modal dialog; Escape closes it.
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help).toBeVisible();
  await expect(help.getByTestId('shortcuts-page')).toContainText('Approve the focused approval');
  await expect(help).toContainText('Go to Agents');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // `g a` is the shell's (go to Agents): the page's `a` does not fire.
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('g');
  await page.keyboard.press('a');
  await expect(page).toHaveURL(new RegExp(`${base}/agents$`));
  expect((await pending())[0]!.status).toBe('pending');

  // Back in the inbox: j focuses the approval, x selects it, a approves it.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${base}/approvals\\?status=pending$`));
  await expect(item).toBeVisible();
  await page.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
  await page.keyboard.press('j');
  await expect(item).toBeFocused();
  await page.keyboard.press('x');
  await expect(item.getByTestId('approval-select')).toBeChecked();
  await item.focus();
  await page.keyboard.press('a');
  await expect.poll(async () => (await pending())[0]!.status, { timeout: RUN_TIMEOUT }).toBe('approved');
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', token, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');

  // The audit log's filters: applied, they are in the URL; reloaded, the form and the rows keep them.
  await page.goto(`${base}/audit`);
  await page.getByTestId('audit-filter-action').fill('approval.');
  await page.getByTestId('audit-filter-apply').click();
  await expect(page).toHaveURL(new RegExp(`${base}/audit\\?action=approval\\.$`));
  await page.reload();
  await expect(page.getByTestId('audit-filter-action')).toHaveValue('approval.');
  const actions = page.getByTestId('audit-table').locator('tr td:nth-child(4)');
  await expect(actions.first()).toBeVisible();
  for (const text of await actions.allInnerTexts()) expect(text).toMatch(/^approval\./);
  await expect(page.getByTestId('audit-table')).toContainText(approvalId);
});
