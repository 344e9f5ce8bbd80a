import { expect, test } from './support/fixtures';
import { codeEditor } from './support/code-editor';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

interface PolicyDocument {
  rules: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * The policy editor (CodeMirror) against the real stack. The editor is driven as a user would:
 * typed into (`.cm-content`), its text read back from the hidden `policy-text-value` input. A
 * syntax error on line 3 is marked on line 3 (gutter and underline) and in the list below, and
 * saving is refused; a schema error the server finds is marked at the line of its value; after
 * the fix the document saves. The original document is saved back at the end for the other specs.
 */
test('a syntax error is shown at its line and blocks saving; fixed, the policy saves', async ({ page, request, demoTeam }) => {
  const teamId = demoTeam.id;
  const token = stack.bootstrapToken;
  const versions = async () => (await trpcQuery<Array<{ version: number }>>(request, 'policies.versions', token, { teamId })).length;
  const original = (await trpcQuery<{ document: PolicyDocument }>(request, 'policies.get', token, { teamId })).document;
  const before = await versions();
  let saved = false;

  try {
    await page.goto(`/t/${demoTeam.slug}/policies`);
    const editor = codeEditor(page, 'policy-text');
    await expect(page.getByTestId('policy-validity')).toHaveText('Valid');
    expect(JSON.parse(await editor.value())).toEqual(original);
    await expect(editor.content).toHaveAttribute('aria-label', 'Policy document');

    // Line 3 has two strings where one value belongs.
    const lines = JSON.stringify(original, null, 2).split('\n');
    lines.splice(2, 0, '  "broken": "a" "b",');
    await editor.fill(lines.join('\n'));
    const issues = page.getByTestId('policy-issues');
    await expect(issues).toContainText('line 3, column 17');
    await expect(page.getByTestId('policy-validity')).toHaveText('1 problem');
    await expect.poll(editor.errorLines).toEqual({ gutter: [3], underlined: [3] });
    await expect(editor.content).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('policy-save')).toBeDisabled();
    await expect(page.getByTestId('policy-save-blocked')).toContainText('must parse first');
    expect(await versions()).toBe(before);

    // Keyboard: Tab indents inside the editor; Escape then Tab moves on to the comment field.
    await editor.content.click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('policy-comment')).toBeFocused();

    // A schema error (the server's, with its line): rule 0's outcome is marked on its own line.
    const invalid = { ...original, rules: [{ ...original.rules[0], outcome: 'maybe' }, ...original.rules.slice(1)] };
    const invalidText = JSON.stringify(invalid, null, 2);
    const outcomeLine = invalidText.split('\n').findIndex((line) => line.includes('"outcome": "maybe"')) + 1;
    await editor.fill(invalidText);
    await expect(issues).toContainText(`line ${outcomeLine}, column`);
    await expect(issues).toContainText('rules.0.outcome');
    await expect.poll(editor.errorLines).toEqual({ gutter: [outcomeLine], underlined: [outcomeLine] });

    // Fixed: valid, saved as a new version.
    const edited = {
      ...original,
      rules: [...original.rules, { id: 'e2e-editor-probe', match: { tool: 'e2e_editor_probe' }, outcome: 'deny', reason: 'probes are refused' }],
    };
    await editor.fill(JSON.stringify(edited, null, 2));
    await expect(page.getByTestId('policy-validity')).toHaveText('Valid');
    await expect(issues).toHaveCount(0);
    await expect.poll(editor.errorLines).toEqual({ gutter: [], underlined: [] });
    await page.getByTestId('policy-comment').fill('e2e: the editor saves a fixed document');
    await page.getByTestId('policy-save').click();
    await expect(page.getByTestId('policy-saved')).toContainText(`Saved version ${before}`);
    saved = true;
    expect(await versions()).toBe(before + 1);
    await expect(page.getByTestId('policy-active')).toContainText(`Active: version ${before}`);
    expect(JSON.parse(await editor.value())).toEqual(edited);
  } finally {
    if (saved) await trpcMutation(request, 'policies.save', token, { teamId, document: original, comment: 'e2e: back to the original' });
  }
});
