import { expect, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * Swarm graphs in the browser, against the real stack and the seeded faux agents: a 3-node graph
 * (planner → coder → reviewer) whose coder → reviewer edge can pay for no model call. The graph
 * is listed and opens in the editor (a change saves as version 2); a run of it shows the live
 * graph with the edge gauges; the reviewer parks on its edge budget; the approver raises it on
 * the live graph and the run finishes.
 */
const RUN_TIMEOUT = 60_000;

test('build a 3-node graph, run it, watch the live graph and its gauges, raise an edge budget', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = (name: string) => {
    const found = agents.find((a) => a.name === name);
    if (!found) throw new Error(`the seed has no ${name} agent; agents: ${agents.map((a) => a.name).join(', ')}`);
    return found.id;
  };
  const name = unique('e2e-graph');
  const graph = await trpcMutation<{ id: string }>(request, 'graphs.create', stack.bootstrapToken, {
    teamId,
    name,
    definition: {
      root: 'planner',
      nodes: [
        { key: 'planner', agentId: agent('swarm-planner'), position: { x: 0, y: 0 } },
        { key: 'coder', agentId: agent('swarm-coder'), readPrefixes: ['notes/'], position: { x: 0, y: 150 } },
        { key: 'reviewer', agentId: agent('swarm-reviewer'), position: { x: 0, y: 300 } },
      ],
      edges: [
        { from: 'planner', to: 'coder', purpose: 'Implement a feature', budget: { calls: 20, maxConcurrent: 1 } },
        { from: 'coder', to: 'reviewer', purpose: 'Review a change', budget: { costMicros: 100, calls: 4, maxConcurrent: 1 } },
      ],
    },
  });

  // Listed, and opens in the editor: the canvas shows the three nodes; an edit saves as version 2.
  await page.goto('/t/demo');
  await page.getByTestId('nav-graphs').click();
  await expect(page).toHaveURL(/\/t\/demo\/graphs$/);
  const row = page.getByTestId('graph-row').filter({ has: page.getByText(name, { exact: true }) });
  await expect(row).toBeVisible();
  await row.getByTestId('graph-edit').click();
  await expect(page.getByTestId('graph-canvas').locator('.react-flow__node')).toHaveCount(3);
  await page.getByTestId('graph-canvas').locator('.react-flow__edge').first().click({ force: true });
  await page.getByTestId('edge-purpose').fill('Implement the most requested feature');
  await page.getByTestId('graph-save').click();
  await expect(page).toHaveURL(/\/t\/demo\/graphs$/);
  await expect(row.locator('td').nth(4)).toHaveText('v2');

  // Run it from the list: the live graph opens.
  await page.getByTestId('graph-goal').fill('Ship dark mode');
  await row.getByTestId('graph-run').click();
  await expect(page).toHaveURL(/\/t\/demo\/graphs\/runs\/\w+$/);
  const runId = page.url().split('/').at(-1)!;
  await expect(page.getByTestId('graph-live')).toBeVisible();
  await expect(page.getByTestId('edge-gauge')).toHaveCount(2);

  // The reviewer's first model call cannot be pre-authorised on its edge: it waits, nothing overspent.
  const reviewer = page.getByTestId('graph-node-state').and(page.locator('[data-node="reviewer"]'));
  await expect(reviewer).toHaveAttribute('data-status', 'waiting', { timeout: RUN_TIMEOUT });
  await expect(reviewer).toContainText('budget');
  const reviewEdge = page.getByTestId('edge-gauge').and(page.locator('[data-edge="coder->reviewer"]'));
  await expect(reviewEdge.getByTestId('gauge-calls')).toHaveAttribute('data-used', '1');
  const cost = reviewEdge.getByTestId('gauge-cost');
  expect(Number(await cost.getAttribute('data-used'))).toBeLessThanOrEqual(100);

  // The approver (the signed-in admin) raises the edge's budget; the reviewer resumes and the run finishes.
  await reviewEdge.getByTestId('edge-raise').click();
  await expect(page.getByTestId('graph-live')).toHaveAttribute('data-run-status', 'succeeded', { timeout: RUN_TIMEOUT });
  await expect(reviewer).toHaveAttribute('data-status', 'succeeded');
  const run = await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId });
  expect(run.status).toBe('succeeded');
  const raised = await trpcQuery<{ rows: Array<{ action: string; targetId: string | null }> }>(request, 'audit.list', stack.bootstrapToken, {
    teamId,
    action: 'budget.raised',
    limit: 20,
  });
  expect(raised.rows.some((r) => r.targetId === runId)).toBe(true);
  const versions = await trpcQuery<{ currentVersion: number }>(request, 'graphs.get', stack.bootstrapToken, { teamId, graphId: graph.id });
  expect(versions.currentVersion).toBe(2);
});
