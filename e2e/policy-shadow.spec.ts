import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

interface PolicyDocument {
  rules: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * The shadow policy against the real stack: a saved version that denies listing and reading
 * files is set as the shadow on the Policies page; the seeded `demo-steps` agent's run (two
 * list_files and one read_file among its calls, which the active policy allows) succeeds as
 * before, while the page's disagreement count climbs to 3 without a reload. Promoting makes it
 * the active version; the original document is saved back afterwards for the other specs.
 */
test('a shadow version counts the live calls it decides otherwise, without changing them, and is promoted', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const token = stack.bootstrapToken;
  const active = await trpcQuery<{ version: number; document: PolicyDocument }>(request, 'policies.get', token, { teamId });
  const original = active.document;
  const candidate: PolicyDocument = {
    ...original,
    rules: [{ id: 'shadow-no-reading', match: { tool: ['list_files', 'read_file'] }, outcome: 'deny', reason: 'the shadow refuses reads' }, ...original.rules],
  };
  // Saved, then the original saved again: the candidate is a saved version that is not active.
  const { version: shadowVersion } = await trpcMutation<{ version: number }>(request, 'policies.save', token, {
    teamId,
    document: candidate,
    comment: 'e2e shadow candidate',
  });
  await trpcMutation(request, 'policies.save', token, { teamId, document: original, comment: 'e2e: back to the original' });

  try {
    await page.goto(`/t/${demoTeam.slug}/policies`);
    await expect(page.getByTestId('shadow-none')).toBeVisible();
    await page.getByTestId('shadow-version').selectOption(String(shadowVersion));
    await page.getByTestId('shadow-set').click();
    await expect(page.getByTestId('shadow-current')).toContainText(`Shadow: v${shadowVersion}`);
    await expect(page.getByTestId('shadow-count')).toHaveText('0 disagreements');

    const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', token, { teamId });
    const agent = agents.find((a) => a.name === 'demo-steps');
    if (!agent) throw new Error('the seed has no demo-steps agent');
    const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', token, { teamId, agentId: agent.id, goal: '/steps shadow' });

    // Live: the count moves while the run goes on, with no reload, up to the three calls.
    await expect(page.getByTestId('shadow-count')).not.toHaveText('0 disagreements', { timeout: 30_000 });
    await expect(page.getByTestId('shadow-count')).toHaveText('3 disagreements', { timeout: 30_000 });
    const rows = page.getByTestId('shadow-disagreement');
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: 'list_files' })).toHaveCount(2);
    await expect(rows.first()).toContainText('Allow');
    await expect(rows.first()).toContainText('Deny');
    await expect(rows.first()).toContainText('shadow-no-reading (shadow)');
    await expect(rows.first().getByTestId('shadow-run-link')).toHaveAttribute('href', `/t/${demoTeam.slug}/runs/${runId}`);

    // The calls went as the active policy decided: the run succeeds, the reads ran.
    const status = async () => (await trpcQuery<{ status: string }>(request, 'runs.get', token, { teamId, runId })).status;
    await expect.poll(status, { timeout: 30_000 }).toBe('succeeded');

    await page.getByTestId('shadow-promote').click();
    await expect(page.getByTestId('shadow-promoted')).toContainText(`Version ${shadowVersion} is active now`);
    await expect(page.getByTestId('policy-active')).toContainText(`Active: version ${shadowVersion}`);
    await expect(page.getByTestId('shadow-none')).toBeVisible();
    await expect(page.getByTestId(`policy-version-${shadowVersion}`)).toContainText('active');
  } finally {
    await trpcMutation(request, 'policies.setShadow', token, { teamId, version: null });
    await trpcMutation(request, 'policies.save', token, { teamId, document: original, comment: 'e2e: restore after the shadow spec' });
  }
});
