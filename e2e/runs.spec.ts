import type { APIRequestContext, Page } from '@playwright/test';
import { codeEditor } from './support/code-editor';
import { expect, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * Durable runs in the browser, against the real stack (`looplane start` runs the real worker).
 * Runs use the seeded `faux-steps` endpoint: a scripted model that takes a dozen short turns, so a
 * run lasts long enough to be watched, reloaded and cancelled mid-way.
 */
const STEPS_ENDPOINT = 'faux-steps';
const RUN_TIMEOUT = 60_000;

interface Endpoint {
  id: string;
  name: string;
}
interface RunView {
  status: string;
  lastEventNo: number;
}

async function stepsEndpoint(request: APIRequestContext, teamId: string): Promise<Endpoint> {
  const endpoints = await trpcQuery<Endpoint[]>(request, 'agents.endpointOptions', stack.bootstrapToken, { teamId });
  const endpoint = endpoints.find((e) => e.name === STEPS_ENDPOINT);
  if (!endpoint) throw new Error(`the seed has no ${STEPS_ENDPOINT} endpoint (see .seed-request-4b.md); endpoints: ${endpoints.map((e) => e.name).join(', ')}`);
  return endpoint;
}

/** An agent on the steps endpoint with a `/steps <topic>` command, made through the API. */
async function stepsAgent(request: APIRequestContext, teamId: string): Promise<{ id: string; name: string }> {
  const endpoint = await stepsEndpoint(request, teamId);
  const name = unique('e2e-steps');
  const agent = await trpcMutation<{ id: string; name: string }>(request, 'agents.create', stack.bootstrapToken, {
    teamId,
    name,
    endpointId: endpoint.id,
    systemPrompt: 'Work in small steps.',
    slashCommands: [
      { name: 'steps', description: 'Walk through the steps', goalTemplate: 'Walk through the steps for {{topic}}', args: [{ name: 'topic', required: true }] },
    ],
  });
  return agent;
}

async function runOf(request: APIRequestContext, teamId: string, runId: string): Promise<RunView> {
  return trpcQuery<RunView>(request, 'runs.get', stack.bootstrapToken, { teamId, runId });
}

async function streamStats(page: Page) {
  return page.getByTestId('run-stream-stats').evaluate((el) => ({
    received: Number(el.getAttribute('data-received')),
    last: Number(el.getAttribute('data-last-event-no')),
    gaps: Number(el.getAttribute('data-gaps')),
    duplicates: Number(el.getAttribute('data-duplicates')),
  }));
}

test('make an agent from the Agents page', async ({ page, request, demoTeam }) => {
  const endpoint = await stepsEndpoint(request, demoTeam.id);
  const name = unique('e2e-ui-agent');
  await page.goto('/t/demo');
  await page.getByTestId('nav-agents').click();
  await page.getByTestId('agents-new').click();
  await page.getByTestId('agent-name').fill(name);
  await page.getByTestId('agent-endpoint').selectOption(endpoint.id);
  await page.getByTestId('agent-prompt').fill('Be brief.');
  await codeEditor(page, 'agent-commands').fill('[{ "name": "hello", "goalTemplate": "Say hello to {{who}}", "args": [{ "name": "who", "required": true }] }]');
  await page.getByTestId('agent-save').click();
  await expect(page).toHaveURL(/\/t\/demo\/agents$/);
  const row = page.locator(`[data-testid="agent-row"][data-agent-name="${name}"]`);
  await expect(row).toContainText('/hello');
  await expect(row).toContainText('v1');

  // A bad template is refused with the engine's own message, shown inline.
  await row.getByTestId('agent-edit').click();
  // Marked as you type at its line (the engine's schema runs in the browser too), refused on save.
  await codeEditor(page, 'agent-commands').fill('[{ "name": "oops", "goalTemplate": "Do {{thing}}" }]');
  await expect(page.getByTestId('agent-commands-issues')).toContainText('line 1, column 2: 0: /oops: template uses {{thing}}');
  await page.getByTestId('agent-save').click();
  await expect(page.getByTestId('agent-form-error')).toContainText('template uses {{thing}}');

  // A JSON syntax error is marked at its line and blocks saving; a value the server refuses is shown at its line.
  await codeEditor(page, 'agent-commands').fill('[]');
  const sandbox = codeEditor(page, 'agent-sandbox');
  await sandbox.fill('{\n  "driver": "bwrap",\n  "memoryMb": \n}');
  await expect(page.getByTestId('agent-sandbox-issues')).toContainText("line 4, column 1: Unexpected token '}'");
  await expect.poll(sandbox.errorLines).toEqual({ gutter: [4], underlined: [4] });
  await expect(page.getByTestId('agent-save')).toBeDisabled();
  await sandbox.fill('{\n  "driver": "bwrap",\n  "memoryMb": 1\n}');
  await expect(page.getByTestId('agent-save')).toBeEnabled();
  await page.getByTestId('agent-save').click();
  await expect(page.getByTestId('agent-sandbox-issues')).toContainText('line 3, column 15: memoryMb:');
});

test('start a run from the composer, watch it live, reload mid-run: no gap, no duplicate', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT + 30_000);
  const agent = await stepsAgent(request, demoTeam.id);
  await page.goto(`/t/demo/runs/new?agent=${agent.id}`);
  await expect(page.getByTestId('composer-agent')).toHaveValue(agent.id);
  await page.getByTestId('composer-goal').fill('/st');
  await expect(page.getByTestId('composer-hint')).toHaveAttribute('data-command', 'steps');
  await page.getByTestId('composer-hint').click();
  await page.getByTestId('composer-goal').pressSequentially('the release');
  await expect(page.getByTestId('composer-usage')).toContainText('/steps <topic>');
  await page.getByTestId('composer-budget-cost').fill('5');
  await page.getByTestId('composer-submit').click();

  await expect(page).toHaveURL(/\/t\/demo\/runs\/[A-Za-z0-9_-]+$/);
  const runId = page.url().split('/').pop()!;
  await expect(page.getByTestId('page-title')).toHaveText('Walk through the steps for the release');

  // Events arrive while the run is still going.
  await expect.poll(async () => (await streamStats(page)).received, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
  expect((await runOf(request, demoTeam.id, runId)).status).not.toMatch(/succeeded|failed|cancelled/);
  await expect(page.getByTestId('timeline-item').first()).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });
  const run = await runOf(request, demoTeam.id, runId);
  await expect.poll(async () => (await streamStats(page)).last).toBe(run.lastEventNo);
  expect(await streamStats(page)).toEqual({ received: run.lastEventNo, last: run.lastEventNo, gaps: 0, duplicates: 0 });
  await expect(page.locator('[data-testid="timeline-item"][data-kind="finished"]')).toContainText('succeeded');
  await expect(page.locator('[data-testid="timeline-item"][data-kind="assistant"]').first()).toBeVisible();

  // The log itself is gap-free and numbered 1..N.
  const events = await trpcQuery<{ events: Array<{ eventNo: number }> }>(request, 'runs.events', stack.bootstrapToken, {
    teamId: demoTeam.id,
    runId,
    limit: 1000,
  });
  expect(events.events.map((e) => e.eventNo)).toEqual(Array.from({ length: run.lastEventNo }, (_, i) => i + 1));
});

test('cancel a running run', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT);
  const agent = await stepsAgent(request, demoTeam.id);
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId: demoTeam.id,
    agentId: agent.id,
    goal: 'a long one to stop',
  });
  await page.goto(`/t/demo/runs/${runId}`);
  await expect.poll(async () => (await streamStats(page)).received, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await page.getByTestId('run-cancel').click();
  await page.getByTestId('run-cancel-confirm').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'cancelled', { timeout: 15_000 });
  await expect(page.locator('[data-testid="timeline-item"][data-kind="finished"]')).toContainText('cancelled');
  await expect(page.getByTestId('run-cancel')).toHaveCount(0);
});

test('the runs list shows new runs and their status changes live', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT + 15_000);
  const agent = await stepsAgent(request, demoTeam.id);
  await page.goto('/t/demo/runs');
  await expect(page.getByTestId('activity-live')).toHaveAttribute('data-connected', 'true');
  const goal = unique('listed run');
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, { teamId: demoTeam.id, agentId: agent.id, goal });
  const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(agent.name);
  await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });

  // Filters: the goal text finds it, a status it does not have hides it.
  await page.getByTestId('runs-filter-text').fill(goal);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await page.getByTestId('runs-filter-status').selectOption('failed');
  await expect(page.getByTestId('runs-empty')).toBeVisible();
  await page.getByTestId('runs-filter-status').selectOption('all');
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
});
