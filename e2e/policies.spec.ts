import { codeEditor } from './support/code-editor';
import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcQuery } from './support/trpc-api';

interface PolicyText {
  rules: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

test('an admin edits the policy: invalid documents are refused, rm -rf / is simulated, a valid edit is saved', async ({ page, request, demoTeam }) => {
  const versions = () => trpcQuery<Array<{ version: number }>>(request, 'policies.versions', stack.bootstrapToken, { teamId: demoTeam.id });
  const before = (await versions()).length;

  await page.goto(`/t/${demoTeam.slug}`);
  await page.getByTestId('nav-policies').click();
  await expect(page).toHaveURL(/\/policies$/);
  const editor = codeEditor(page, 'policy-text');
  await expect(page.getByTestId('policy-text-value')).not.toHaveValue('');
  await expect(page.getByTestId('policy-validity')).toHaveText('Valid');
  const original = JSON.parse(await editor.value()) as PolicyText;

  // An invalid document: the editor names the path and line, and saving is refused.
  const invalid = { ...original, rules: [{ ...original.rules[0], outcome: 'maybe' }, ...original.rules.slice(1)] };
  await editor.fill(JSON.stringify(invalid, null, 2));
  await expect(page.getByTestId('policy-issues')).toContainText('rules.0.outcome');
  await expect(page.getByTestId('policy-issues')).toContainText(/line \d+/);
  await page.getByTestId('policy-save').click();
  await expect(page.getByTestId('policy-save-error')).toContainText('document.rules.0.outcome');
  expect((await versions()).length).toBe(before);

  // The simulator on the active version: rm -rf / needs an approver, by the destructive rule.
  await page.getByTestId('sim-use-draft').uncheck();
  await page.getByTestId('sim-tool').selectOption('shell');
  await page.getByTestId('sim-main').fill('rm -rf /');
  await page.getByTestId('sim-run').click();
  await expect(page.getByTestId('sim-outcome')).toHaveText('Require approval (approver)');
  await expect(page.getByTestId('sim-rule')).toHaveText('shell-destructive');

  // A valid edit (one more rule, for a tool nothing else uses), tried as a draft, then saved.
  const edited = { ...original, rules: [...original.rules, { id: 'e2e-probe', match: { tool: 'e2e_probe' }, outcome: 'deny', reason: 'probes are refused' }] };
  await editor.fill(JSON.stringify(edited, null, 2));
  await expect(page.getByTestId('policy-validity')).toHaveText('Valid');
  await page.getByTestId('sim-use-draft').check();
  await page.getByTestId('sim-tool').selectOption('other');
  await page.getByLabel('Tool name').fill('e2e_probe');
  await page.getByTestId('sim-run').click();
  await expect(page.getByTestId('sim-outcome')).toHaveText('Deny');
  await expect(page.getByTestId('sim-rule')).toHaveText('e2e-probe');

  await page.getByTestId('policy-comment').fill('refuse probes');
  await page.getByTestId('policy-save').click();
  await expect(page.getByTestId('policy-saved')).toContainText(`Saved version ${before}`);
  expect((await versions()).length).toBe(before + 1);
  const newest = page.getByTestId(`policy-version-${before}`);
  await expect(newest).toContainText('active');
  await expect(newest).toContainText('refuse probes');
  await expect(page.getByTestId('policy-diff')).toContainText('+ rule e2e-probe');
});
