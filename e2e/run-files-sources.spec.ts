import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { startGitRemote } from './support/git-remote';
import { stack, unique } from './support/stack';
import { trpcQuery } from './support/trpc-api';

/**
 * Runs that start from files, from the New run page: a private repository (served by git
 * http-backend from this process, its token a team secret, the team policy allowing the server)
 * and an archive chosen with the file picker and uploaded at once. The run page says where the
 * files came from, and its Files tab shows them. The seeded `demo` agent answers at once, so the
 * runs finish quickly; every wait is on a condition.
 */
const RUN_TIMEOUT = 45_000;
const run = promisify(execFile);

const FILES = { 'README.md': '# widgets\n', 'src/widget.js': 'module.exports = () => 41;\n', 'docs/notes.txt': 'notes\n' };

interface AgentRow {
  id: string;
  name: string;
  endpoint: { id: string };
}

async function agentNamed(request: APIRequestContext, teamId: string, name: string): Promise<AgentRow> {
  const agents = await trpcQuery<AgentRow[]>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === name);
  if (!agent) throw new Error(`no agent ${name}; agents: ${agents.map((a) => a.name).join(', ')}`);
  return agent;
}

async function demoAgentId(request: APIRequestContext, teamId: string): Promise<string> {
  return (await agentNamed(request, teamId, 'demo')).id;
}

/** The New run page with the demo agent and a goal filled in. */
async function composeDemoRun(page: Page, slug: string, agentId: string, goal: string): Promise<void> {
  await page.goto(`/t/${slug}/runs/new`);
  await page.getByTestId('composer-agent').selectOption(agentId);
  await page.getByTestId('composer-goal').fill(goal);
}

/** Starts the composed run and waits for its page to say it succeeded. */
async function startAndFinish(page: Page): Promise<void> {
  await page.getByTestId('composer-submit').click();
  await expect(page).toHaveURL(/\/runs\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });
}

/** The Files tab lists these paths at the workspace's root. */
async function expectFilesTab(page: Page, paths: string[]): Promise<void> {
  await page.getByTestId('run-tab-files').click();
  const listing = page.getByTestId('run-files').getByTestId('files-panel');
  for (const path of paths) await expect(listing.locator(`[data-testid="files-entry"][data-path="${path}"]`)).toBeVisible();
}

test('a run starts from a private repository chosen on the New run page; the run page says where its files came from', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const remote = await startGitRemote(request, demoTeam.id, FILES);
  try {
    await composeDemoRun(page, demoTeam.slug, await demoAgentId(request, demoTeam.id), 'Read the widgets repository');
    await page.getByTestId('workspace-choice-git').check();
    await expect(page.getByTestId('workspace-picker')).toHaveAttribute('data-choice', 'git');

    // What the page can tell is said before asking; what the server refuses is shown as it says it.
    await page.getByTestId('composer-submit').click();
    await expect(page.getByTestId('composer-error')).toContainText('Give the repository URL');
    await page.getByLabel('Repository URL').fill('https://git.example.invalid/acme/widgets.git');
    await page.getByTestId('composer-submit').click();
    await expect(page.getByTestId('composer-error')).toContainText('The team policy refuses this repository');

    await page.getByLabel('Repository URL').fill(remote.url);
    await page.getByLabel('Branch, tag or commit (optional)').fill('main');
    // An admin picks the team's token from the list of secrets.
    await page.getByLabel('Secret (optional)').selectOption(remote.secretName);
    await startAndFinish(page);

    const seed = page.getByTestId('run-seed');
    await expect(seed).toHaveAttribute('data-source', 'git');
    await expect(seed.getByTestId('run-seed-url')).toHaveText(remote.url);
    await expect(seed.getByTestId('run-seed-ref')).toHaveText('@ main');
    await expect(seed.getByTestId('run-seed-revision')).toHaveText(remote.headCommit.slice(0, 7));
    await expect(seed.getByTestId('run-seed-files')).toContainText('3 files');
    await expectFilesTab(page, ['README.md', 'src', 'docs']);
  } finally {
    await remote.close();
  }
});

test('a run starts from an archive uploaded with the file picker; a file that is no archive is refused with the reason', async ({
  page,
  request,
  demoTeam,
}) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const dir = await mkdtemp(join(tmpdir(), 'looplane-e2e-upload-'));
  try {
    const tree = join(dir, 'tree');
    for (const [path, content] of Object.entries(FILES)) {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await writeFile(join(tree, path), content);
    }
    const archive = join(dir, 'widgets.tar.gz');
    await run('tar', ['-czf', archive, '-C', tree, 'README.md', 'src', 'docs']);
    const notAnArchive = join(dir, 'notes.zip');
    await writeFile(notAnArchive, 'these are notes, not a zip\n');

    await composeDemoRun(page, demoTeam.slug, await demoAgentId(request, demoTeam.id), 'Read the uploaded widgets');
    await page.getByTestId('workspace-choice-archive').check();
    const upload = page.getByTestId('workspace-upload');
    const picker = page.getByLabel('Archive (.tar, .tar.gz, .zip)');
    await expect(picker).toHaveAttribute('accept', '.tar,.tar.gz,.tgz,.zip');

    // Refused by the server (problem+json), with its reason; nothing to start from yet.
    await picker.setInputFiles(notAnArchive);
    await expect(upload.getByTestId('workspace-upload-error')).toContainText('is not a .tar, .tar.gz (.tgz) or .zip archive');
    await page.getByTestId('composer-submit').click();
    await expect(page.getByTestId('composer-error')).toContainText('Choose an archive and wait until it is uploaded');

    await picker.setInputFiles(archive);
    await expect(upload).toHaveAttribute('data-step', 'done');
    // GNU tar lists the two directories as entries of their own.
    await expect(upload.getByTestId('workspace-upload-done')).toContainText('widgets.tar.gz uploaded: 5 entries');
    await expect(upload.getByTestId('workspace-upload-error')).toHaveCount(0);
    await startAndFinish(page);

    const seed = page.getByTestId('run-seed');
    await expect(seed).toHaveAttribute('data-source', 'archive');
    await expect(seed.getByTestId('run-seed-filename')).toHaveText('widgets.tar.gz');
    await expect(seed.getByTestId('run-seed-files')).toContainText('3 files');
    await expectFilesTab(page, ['README.md', 'src', 'docs']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("an agent's default repository, set in the agent editor, is where its runs start when the run names no files", async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const remote = await startGitRemote(request, demoTeam.id, FILES);
  try {
    const name = unique('e2e-repo-agent');
    await page.goto(`/t/${demoTeam.slug}/agents/new`);
    await page.getByTestId('agent-name').fill(name);
    // The demo agent's faux endpoint answers at once.
    await page.getByTestId('agent-endpoint').selectOption((await agentNamed(request, demoTeam.id, 'demo')).endpoint.id);
    const defaults = page.getByTestId('agent-workspace');
    // The server checks the default against the policy as it would a run's.
    await defaults.getByLabel('Repository URL').fill('https://git.example.invalid/acme/widgets.git');
    await page.getByTestId('agent-save').click();
    await expect(page.getByTestId('agent-form-error')).toContainText('The team policy refuses this repository');
    await defaults.getByLabel('Repository URL').fill(remote.url);
    await defaults.getByLabel('Branch, tag or commit (optional)').fill('main');
    await defaults.getByLabel('Secret (optional)').selectOption(remote.secretName);
    await page.getByTestId('agent-save').click();
    await expect(page).toHaveURL(new RegExp(`/t/${demoTeam.slug}/agents$`));

    const agent = await agentNamed(request, demoTeam.id, name);
    await page.goto(`/t/${demoTeam.slug}/runs/new?agent=${agent.id}`);
    await expect(page.getByTestId('workspace-none-hint')).toContainText(`The agent's default: ${remote.url} @ main`);
    await page.getByTestId('composer-goal').fill('Read the default repository');
    await startAndFinish(page);
    await expect(page.getByTestId('run-seed').getByTestId('run-seed-url')).toHaveText(remote.url);
    await expect(page.getByTestId('run-seed').getByTestId('run-seed-revision')).toHaveText(remote.headCommit.slice(0, 7));

    // The editor shows the default as saved.
    await page.goto(`/t/${demoTeam.slug}/agents/${agent.id}`);
    await expect(page.getByTestId('agent-workspace-url')).toHaveValue(remote.url);
    await expect(page.getByTestId('agent-workspace-secret')).toHaveValue(remote.secretName);
  } finally {
    await remote.close();
  }
});
