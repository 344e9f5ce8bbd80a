import { DELIVERY_TOOL_SPECS, type ScriptTurn } from '@looplane/engine';
import { expect, test } from './support/fixtures';
import { startGitRemote } from './support/git-remote';
import { scriptedAgent, seededToolSpecs } from './support/scripted-agent';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * Work handed back, in the browser: a scripted agent starts from a private repository (git
 * http-backend in this process), fixes a file and publishes a branch. The team policy holds the
 * push for an approver, whose inbox card shows the target remote and branch and the diff that
 * would be pushed; the approver renames the branch and approves; the run page then names the
 * pushed branch and its remote and offers the patch, and the branch is on the server.
 */
const RUN_TIMEOUT = 60_000;
const FILES = { 'README.md': '# widgets\n', 'src/widget.js': 'module.exports = () => 41;\n' };
const FIXED = 'module.exports = () => 42;\n';

test('an approver sees where a push goes and what it holds, renames the branch, approves; the run page links the pushed branch', async ({
  page,
  request,
  demoTeam,
}) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const teamId = demoTeam.id;
  const asked = unique('e2e/wip');
  const renamed = unique('e2e/fix-widget');
  const script: ScriptTurn[] = [
    { say: 'Loading the tools.', calls: [{ tool: 'load_tools', args: { names: ['write_file', 'publish_branch'] } }] },
    { say: 'Fixing the widget.', calls: [{ tool: 'write_file', args: { path: 'src/widget.js', content: FIXED } }] },
    { say: 'Publishing the fix.', calls: [{ tool: 'publish_branch', args: { branch: asked, message: 'Fix the widget' } }] },
    { finish: 'The fix is published.' },
  ];
  const publish = DELIVERY_TOOL_SPECS.filter((spec) => spec.name === 'publish_branch').map((spec) => ({ ...spec }));
  const agent = await scriptedAgent(request, teamId, {
    name: 'e2e-deliver',
    script,
    tools: [...(await seededToolSpecs(request, teamId, ['write_file'])), ...publish],
  });
  const remote = await startGitRemote(request, teamId, FILES);
  try {
    const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
      teamId,
      agentId: agent.agentId,
      goal: 'Fix the widget and publish it',
      workspace: { git: { url: remote.url, secretRef: remote.secretName } },
    });

    // The inbox card: where the push goes and the diff it would push (the session's files against the seed).
    await page.goto(`/t/${demoTeam.slug}/approvals`);
    const item = page
      .getByTestId('approval-item')
      .filter({ has: page.locator(`a[href="/t/${demoTeam.slug}/runs/${runId}"]`) })
      .and(page.locator('[data-status="pending"]'));
    await expect(item).toHaveCount(1, { timeout: RUN_TIMEOUT });
    await expect(item.getByTestId('approval-tool')).toHaveText('publish_branch');
    await expect(item.getByTestId('approval-rule')).toContainText('deliver-needs-approval');
    await expect(item.getByTestId('approval-publish-branch')).toHaveText(asked);
    await expect(item.getByTestId('approval-publish-remote')).toHaveText(remote.url);
    const file = item.getByTestId('approval-publish-diff').locator('[data-testid="call-diff-file"][data-path="src/widget.js"]');
    await expect(file.getByTestId('call-diff-lines')).toContainText('() => 42');
    await expect(item.getByTestId('approval-publish-diff').getByTestId('call-diff-file')).toHaveCount(1);
    expect(await remote.lsRemote(`refs/heads/${asked}`)).toBe('');

    // A better branch name: the edited call is decided again, and it is the one that runs.
    await item.getByTestId('approval-edit').click();
    await item.getByTestId('approval-args-editor').fill(JSON.stringify({ branch: renamed, message: 'Fix the widget' }));
    await item.getByTestId('approval-comment').fill('a clearer branch name');
    await item.getByTestId('approval-approve').click();
    await expect
      .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
      .toBe('succeeded');

    // On the server: the renamed branch, and nothing under the name the agent asked for.
    const pushed = await remote.lsRemote(`refs/heads/${renamed}`);
    expect(pushed).toMatch(new RegExp(`^[0-9a-f]{40}\\trefs/heads/${renamed}$`));
    expect(await remote.lsRemote(`refs/heads/${asked}`)).toBe('');

    // The run page: where the files came from, the pushed branch with its remote, and the patch.
    await page.goto(`/t/${demoTeam.slug}/runs/${runId}`);
    await expect(page.getByTestId('run-seed').getByTestId('run-seed-url')).toHaveText(remote.url);
    const branch = page.getByTestId('run-pushed-branch');
    await expect(branch).toHaveAttribute('data-branch', renamed);
    await expect(branch.getByTestId('run-pushed-remote')).toHaveText(remote.url);
    await expect(branch).toContainText(`at ${pushed.slice(0, 7)}`);
    // A self-hosted remote: the link is the repository's page, the branch its text.
    await expect(branch.getByTestId('run-pushed-branch-link')).toHaveText(renamed);
    await expect(branch.getByTestId('run-pushed-branch-link')).toHaveAttribute('href', remote.url.replace(/\.git$/, ''));

    const patchLink = page.getByTestId('run-download-patch');
    const href = await patchLink.getAttribute('href');
    if (!href) throw new Error('the patch link has no href');
    const patch = await page.request.get(href);
    expect(patch.status(), await patch.text()).toBe(200);
    expect(patch.headers()['content-disposition']).toMatch(/^attachment; filename="[A-Za-z0-9_-]+\.patch"$/);
    expect(await patch.text()).toContain('+module.exports = () => 42;');
  } finally {
    await remote.close();
  }
});
