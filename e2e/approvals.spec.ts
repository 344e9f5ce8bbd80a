import { expect, signIn, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { inviteAndSignUp } from './support/invitations';
import { trpcQuery } from './support/trpc-api';

/**
 * Approval gates in the browser, against the real stack: the seeded `demo-cleanup` agent runs
 * `rm -rf build`, which the team's default policy holds for an approver. An operator starts the
 * run; the approver (the signed-in admin), already on the inbox, sees the call appear live, edits
 * the command, approves, and the run goes on with the edited command.
 */
const RUN_TIMEOUT = 60_000;

interface RunEvent {
  type: string;
  payload: Record<string, unknown>;
}

test("an operator's run hits rm -rf; the approver sees it live, edits the command, approves; the run continues", async ({
  page,
  browser,
  request,
  demoTeam,
}) => {
  const teamId = demoTeam.id;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-cleanup');
  if (!agent) throw new Error(`the seed has no demo-cleanup agent; agents: ${agents.map((a) => a.name).join(', ')}`);
  const email = `${unique('e2e-operator')}@example.test`;
  const password = 'operator password 1';
  await inviteAndSignUp(request, teamId, email, 'operator', password);

  // The approver waits on the inbox.
  await page.goto('/t/demo');
  await page.getByTestId('nav-approvals').click();
  await expect(page).toHaveURL(/\/t\/demo\/approvals$/);
  await expect(page.getByTestId('activity-live')).toHaveAttribute('data-connected', 'true');

  // The operator starts the run, in a browser of their own.
  const operator = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const operatorPage = await operator.newPage();
  await signIn(operatorPage, email, password);
  const created = await operatorPage.request.post('/api/trpc/runs.create', {
    data: { json: { teamId, agentId: agent.id, goal: 'Clean the build directory' } },
  });
  expect(created.status(), await created.text()).toBe(200);
  const runId = ((await created.json()) as { result: { data: { json: { runId: string } } } }).result.data.json.runId;
  await operator.close();

  // The run parks on the approval (the worker holds nothing while it waits)...
  const status = async () => await trpcQuery<{ status: string; waitReason: string | null }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId });
  await expect
    .poll(
      async () => {
        const run = await status();
        return `${run.status}/${run.waitReason}`;
      },
      { timeout: 30_000 },
    )
    .toBe('waiting/approval');
  // ...and the approver sees it appear without a reload: the exact command, the rule, the risk, the run.
  const item = page.getByTestId('approval-item').filter({ has: page.locator(`a[href="/t/demo/runs/${runId}"]`) });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('data-status', 'pending');
  await expect(item.getByTestId('approval-command')).toHaveText('$ rm -rf build');
  await expect(item.getByTestId('approval-rule')).toContainText('shell-destructive');
  await expect(item.getByTestId('approval-risk')).toContainText('high');
  await expect(item).toContainText('demo-cleanup');
  await expect(item).toContainText(email);
  await expect(page.getByTestId('nav-approvals-pending')).toBeVisible();

  // Edit the arguments: bad JSON cannot be approved; a narrower command can.
  await item.getByTestId('approval-edit').click();
  const editor = item.getByTestId('approval-args-editor');
  await editor.fill('{ "command": ');
  await expect(item.getByTestId('approval-args-invalid')).toBeVisible();
  await expect(item.getByTestId('approval-approve')).toBeDisabled();
  await editor.fill('{ "command": "rm -rf build/cache" }');
  await expect(item.getByTestId('approval-args-invalid')).toHaveCount(0);
  await item.getByTestId('approval-comment').fill('only the cache');
  await item.getByTestId('approval-approve').click();

  // The run continues, with the approver's command, and finishes.
  await expect.poll(async () => (await status()).status, { timeout: RUN_TIMEOUT }).toBe('succeeded');
  const { events } = await trpcQuery<{ events: RunEvent[] }>(request, 'runs.events', stack.bootstrapToken, { teamId, runId, limit: 500 });
  const decided = events.find((e) => e.type === 'approval.decided');
  expect(decided?.payload).toMatchObject({ approved: true, comment: 'only the cache', editedArgs: { command: 'rm -rf build/cache' } });
  const commands = events.filter((e) => e.type === 'tool.started').map((e) => (e.payload.args as { command?: string }).command);
  expect(commands).toContain('rm -rf build/cache');
  expect(commands).not.toContain('rm -rf build');

  // The history shows the decision.
  await page.getByTestId('approvals-filter').selectOption('approved');
  const decidedItem = page.getByTestId('approval-item').filter({ has: page.locator(`a[href="/t/demo/runs/${runId}"]`) });
  await expect(decidedItem).toHaveAttribute('data-status', 'approved');
  await expect(decidedItem.getByTestId('approval-decided')).toContainText('only the cache');
});
