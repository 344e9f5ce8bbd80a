import type { APIRequestContext } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';
import { dropWorkerWorkspace, expectSeparateWebReadOnlyTheStore, sessionEvents, toolCall } from './support/workspaces';
import { revealRow } from './support/timeline';

/**
 * Session files in the browser, read from the workspace store: a run of the seeded `demo-steps`
 * agent writes notes with `write_file`, and the run page's Files tab shows them at the latest
 * event and at earlier ones, and downloads the workspace as a tarball. The worker's local copy of
 * every workspace is deleted first, so nothing here can come from the worker's disk. A branch of
 * `demo-cleanup` writes a file of its own; its Files tab and the branch compare show it. The run
 * page is the separate web's (`stack.separateWebURL`): a web on the same database and Redis but
 * another LOOPLANE_HOME than the worker's, as on another host; the runs are started through the
 * first web's API.
 */
const RUN_TIMEOUT = 60_000;

interface TreeView {
  mainSessionId: string;
  sessions: Array<{ id: string; status: string }>;
}

async function startRun(request: APIRequestContext, teamId: string, agentName: string, goal: string): Promise<string> {
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === agentName);
  if (!agent) throw new Error(`the seed has no ${agentName} agent; agents: ${agents.map((a) => a.name).join(', ')}`);
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, { teamId, agentId: agent.id, goal });
  return runId;
}

const tree = (request: APIRequestContext, teamId: string, runId: string) =>
  trpcQuery<TreeView>(request, 'sessions.tree', stack.bootstrapToken, { teamId, runId });

async function sessionStatus(request: APIRequestContext, teamId: string, runId: string, sessionId: string): Promise<string | undefined> {
  return (await tree(request, teamId, runId)).sessions.find((s) => s.id === sessionId)?.status;
}

/** Approves the session's pending approval, running `command` instead of the model's. */
async function approveWith(request: APIRequestContext, teamId: string, sessionId: string, command: string): Promise<void> {
  type Pending = { items: Array<{ id: string; sessionId: string }> };
  let approvalId: string | undefined;
  await expect
    .poll(
      async () => {
        const pending = await trpcQuery<Pending>(request, 'approvals.list', stack.bootstrapToken, { teamId, status: 'pending', limit: 100 });
        approvalId = pending.items.find((a) => a.sessionId === sessionId)?.id;
        return approvalId !== undefined;
      },
      { timeout: RUN_TIMEOUT },
    )
    .toBe(true);
  await trpcMutation(request, 'approvals.decide', stack.bootstrapToken, { teamId, approvalId, decision: 'approve', editedArgs: { command } });
}

test("the Files tab shows a finished run's workspace at any event, without the worker's disk, and downloads it", async ({
  separatePage: page,
  request,
  demoTeam,
}) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const teamId = demoTeam.id;
  const runId = await startRun(request, teamId, 'demo-steps', 'Walk through the steps for the files panel');
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');
  const main = (await tree(request, teamId, runId)).mainSessionId;
  const { lastSeq, events } = await sessionEvents(request, teamId, main);
  // The plan is written (all todo), then edited: part 1 done, later part 2.
  const write = toolCall(events, (name, args) => name === 'write_file' && args.path === 'notes/plan.md');
  const firstEdit = toolCall(events, (name, args) => name === 'edit_file' && args.new_string === 'part 1: done');
  expect(firstEdit.requested).toBeGreaterThan(write.finished);
  await dropWorkerWorkspace(main);

  await page.goto(`${stack.separateWebURL}/t/demo/runs/${runId}`);
  await page.getByTestId('branch-tab-files').click();
  const panel = page.getByTestId('files-panel');
  const at = panel.getByTestId('files-at');
  await expect(at).toHaveAttribute('data-at-event', String(lastSeq));
  await expect(at).toHaveAttribute('data-latest', 'true');
  await expect(at).toContainText(`at event #${lastSeq}`);

  // Into notes/ and the plan, as it ended.
  await panel.locator('[data-testid="files-entry"][data-path="notes"]').getByTestId('files-entry-open').click();
  await expect(panel.getByTestId('files-breadcrumbs')).toHaveAttribute('data-path', 'notes');
  for (const name of ['plan.md', 'summary.md', 'log.txt']) {
    await expect(panel.locator(`[data-testid="files-entry"][data-path="notes/${name}"]`)).toHaveAttribute('data-type', 'file');
  }
  await panel.locator('[data-testid="files-entry"][data-path="notes/plan.md"]').getByTestId('files-entry-open').click();
  const content = panel.getByTestId('file-content');
  await expect(content).toContainText('- part 1: done');
  await expect(content).toContainText('- part 2: done');

  // The tarball of the latest event: a gzip holding the notes as they ended.
  const href = await panel.getByTestId('files-download').getAttribute('href');
  expect(href).toBe(`/api/sessions/${main}/workspace.tar.gz?atEvent=${lastSeq}`);
  const download = await page.request.get(`${stack.separateWebURL}${href!}`);
  expect(download.status(), await download.text().catch(() => '')).toBe(200);
  const gzip = await download.body();
  expect([gzip[0], gzip[1]]).toEqual([0x1f, 0x8b]);
  const tar = gunzipSync(gzip).toString('latin1');
  expect(tar).toContain('notes/plan.md');
  expect(tar).toContain('Parts 1 and 2 done; part 3 left for later.');

  // Just after the write: the plan is there, all todo.
  const input = panel.getByTestId('files-at-input');
  await input.fill(String(write.finished));
  await panel.getByTestId('files-at-go').click();
  await expect(at).toHaveAttribute('data-at-event', String(write.finished));
  await expect(at).toHaveAttribute('data-latest', 'false');
  await expect(content).toContainText('- part 1: todo');
  await expect(panel.getByTestId('files-download')).toHaveAttribute('href', `/api/sessions/${main}/workspace.tar.gz?atEvent=${write.finished}`);

  // When the write was only requested, the file does not exist yet: said in words, not a crash.
  await input.fill(String(write.requested));
  await panel.getByTestId('files-at-go').click();
  await expect(panel.getByTestId('files-not-found')).toContainText('notes/plan.md does not exist at this event');
  await panel.getByRole('button', { name: 'Back to the workspace root' }).click();
  await expect(panel.getByTestId('files-breadcrumbs')).toHaveAttribute('data-path', '');
  await expect(panel.getByTestId('files-empty')).toBeVisible();
  await expect(panel.locator('[data-testid="files-entry"][data-path="notes"]')).toHaveCount(0);

  // The run's timeline opens the files at one of its events.
  const timeline = page.getByTestId('run-timeline');
  const editRow = timeline.locator(`[data-testid="timeline-item"][data-seq="${firstEdit.finished}"]`);
  await revealRow(timeline, editRow);
  await editRow.getByTestId('files-at-event').click();
  await expect(page.getByTestId('branch-tab-files')).toHaveAttribute('aria-expanded', 'true');
  await expect(at).toHaveAttribute('data-at-event', String(firstEdit.finished));
  await panel.locator('[data-testid="files-entry"][data-path="notes"]').getByTestId('files-entry-open').click();
  await expect(panel.locator('[data-testid="files-entry"][data-path="notes/summary.md"]')).toHaveCount(0);
  await panel.locator('[data-testid="files-entry"][data-path="notes/plan.md"]').getByTestId('files-entry-open').click();
  await expect(content).toContainText('- part 1: done');
  await expect(content).toContainText('- part 2: todo');
  // Back to the latest, through the breadcrumbs and "Latest".
  await panel.getByTestId('files-at-latest').click();
  await expect(at).toHaveAttribute('data-latest', 'true');
  await panel.locator('[data-testid="files-crumb"][data-path=""]').click();
  await expect(panel.locator('[data-testid="files-entry"][data-path="notes"]')).toBeVisible();
  await expectSeparateWebReadOnlyTheStore(runId);
});

test('a branch writes a file of its own: its Files tab and the branch compare show it, from the store', async ({ separatePage: page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 3);
  const teamId = demoTeam.id;
  // demo-cleanup makes build/, then asks to `rm -rf build`: the approver runs another command instead.
  const runId = await startRun(request, teamId, 'demo-cleanup', 'Clean up, with a file of your own');
  const main = (await tree(request, teamId, runId)).mainSessionId;
  await approveWith(request, teamId, main, 'echo "from the main line" > main.txt');
  await expect.poll(() => sessionStatus(request, teamId, runId, main), { timeout: RUN_TIMEOUT }).toBe('succeeded');

  // Fork after build/ was made, before the rm was asked for; the branch's approver writes another file.
  const { events } = await sessionEvents(request, teamId, main);
  const mkdir = toolCall(events, (name, args) => name === 'shell' && String(args.command).startsWith('mkdir'));
  const forkAt = events.find((e) => e.seq >= mkdir.finished && e.forkBlocker === null);
  expect(forkAt, 'a forkable event after the mkdir').toBeDefined();
  const { sessionId: branch } = await trpcMutation<{ sessionId: string }>(request, 'sessions.fork', stack.bootstrapToken, {
    teamId,
    sessionId: main,
    atEvent: forkAt!.seq,
  });
  await approveWith(request, teamId, branch, 'echo "from the branch" > branch.txt');
  await expect.poll(() => sessionStatus(request, teamId, runId, branch), { timeout: RUN_TIMEOUT }).toBe('succeeded');
  await dropWorkerWorkspace(main);
  await dropWorkerWorkspace(branch);

  await page.goto(`${stack.separateWebURL}/t/demo/runs/${runId}?session=${branch}`);
  await expect(page.getByTestId('branch-detail')).toHaveAttribute('data-session-id', branch);
  await page.getByTestId('branch-tab-files').click();
  const panel = page.getByTestId('files-panel');
  await expect(panel).toHaveAttribute('data-session-id', branch);
  await expect(panel.locator('[data-testid="files-entry"][data-path="build"]')).toHaveAttribute('data-type', 'dir');
  await expect(panel.locator('[data-testid="files-entry"][data-path="main.txt"]')).toHaveCount(0);
  await panel.locator('[data-testid="files-entry"][data-path="branch.txt"]').getByTestId('files-entry-open').click();
  await expect(panel.getByTestId('file-content')).toHaveText(/^from the branch\s*$/);

  // The main line has its own file and not the branch's.
  await page.locator(`[data-testid="session-node"][data-session-id="${main}"]`).getByTestId('session-select').click();
  await page.getByTestId('branch-tab-files').click();
  await expect(panel).toHaveAttribute('data-session-id', main);
  await expect(panel.locator('[data-testid="files-entry"][data-path="main.txt"]')).toBeVisible();
  await expect(panel.locator('[data-testid="files-entry"][data-path="branch.txt"]')).toHaveCount(0);

  // Compare: the file diff between the two workspaces.
  await page.locator(`[data-testid="session-node"][data-session-id="${main}"] [data-testid="session-compare-toggle"]`).check();
  await page.locator(`[data-testid="session-node"][data-session-id="${branch}"] [data-testid="session-compare-toggle"]`).check();
  // File by file: the branch's own file is added, the main line's is not on the branch.
  const diff = page.getByTestId('compare-files-diff');
  const added = diff.locator('[data-testid="call-diff-file"][data-path="branch.txt"]');
  await expect(added.getByTestId('diff-file-name')).toHaveText('added branch.txt');
  await expect(added).toHaveAttribute('data-added', '1');
  await expect(added.getByTestId('call-diff-lines')).toContainText('from the branch');
  const removed = diff.locator('[data-testid="call-diff-file"][data-path="main.txt"]');
  await expect(removed.getByTestId('diff-file-name')).toHaveText('deleted main.txt');
  await expect(removed).toHaveAttribute('data-removed', '1');
  await expect(removed.getByTestId('call-diff-lines')).toContainText('from the main line');
  await expectSeparateWebReadOnlyTheStore(runId);
});
