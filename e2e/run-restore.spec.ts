import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';
import { sessionEvents, toolCall } from './support/workspaces';

/**
 * Undo from the run page: a finished run of the seeded `demo-steps` agent writes notes/plan.md
 * (all todo) and later marks part 1 done. In the Files tab, the plan at the write's event is
 * restored after a confirmation: the worker applies it, the run finishes again as it was, the
 * latest files hold the plan as it was written, and the timeline shows the restore.
 */
const RUN_TIMEOUT = 60_000;

interface Files {
  atEvent: number;
  node: { kind: string; content?: string };
}

async function finishedStepsRun(request: APIRequestContext, teamId: string): Promise<{ runId: string; main: string }> {
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const agent = agents.find((a) => a.name === 'demo-steps');
  if (!agent) throw new Error(`the seed has no demo-steps agent; agents: ${agents.map((a) => a.name).join(', ')}`);
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: agent.id,
    goal: 'Write a plan, then undo',
  });
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: RUN_TIMEOUT })
    .toBe('succeeded');
  const tree = await trpcQuery<{ mainSessionId: string }>(request, 'sessions.tree', stack.bootstrapToken, { teamId, runId });
  return { runId, main: tree.mainSessionId };
}

test('restores a file from the run page: confirmed, applied by the worker, the run finished again as it was', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const { runId, main } = await finishedStepsRun(request, demoTeam.id);
  const { events, lastSeq } = await sessionEvents(request, demoTeam.id, main);
  const write = toolCall(events, (name, args) => name === 'write_file' && args.path === 'notes/plan.md');
  const latestPlan = () => trpcQuery<Files>(request, 'sessions.files', stack.bootstrapToken, { teamId: demoTeam.id, sessionId: main, path: 'notes/plan.md' });
  expect((await latestPlan()).node.content).toContain('- part 1: done');

  // The plan as the write left it, in the Files tab (the event and path come from the URL).
  await page.goto(`/t/demo/runs/${runId}?tab=files&at=${write.finished}&path=notes%2Fplan.md`);
  const panel = page.getByTestId('run-files').getByTestId('files-panel');
  await expect(panel.getByTestId('file-content')).toContainText('- part 1: todo');

  // Restoring asks first; cancelling changes nothing.
  await panel.getByTestId('files-restore').click();
  const dialog = page.getByTestId('restore-dialog');
  await expect(dialog).toContainText(`Restore files to event #${write.finished}`);
  await expect(dialog).toContainText('notes/plan.md will be put back as it was');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await panel.getByTestId('files-restore').click();
  await dialog.getByTestId('restore-submit').click();
  await expect(dialog).toHaveCount(0);

  // The worker applied it: the latest plan is the written one, and the restore and the finish again
  // were committed together (no model call between), so the run is as it was.
  await expect.poll(async () => (await latestPlan()).node.content, { timeout: 30_000 }).toContain('- part 1: todo');
  const after = await sessionEvents(request, demoTeam.id, main);
  expect(after.events.slice(lastSeq).map((e) => e.type)).toEqual(['workspace.restored', 'run.finished']);
  expect(after.events.filter((e) => e.type === 'model.requested')).toHaveLength(events.filter((e) => e.type === 'model.requested').length);
  expect((await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId: demoTeam.id, runId })).status).toBe('succeeded');

  // The page shows it: the latest files, and the restore in the timeline with its own restore action.
  await panel.getByTestId('files-at-latest').click();
  await expect(panel.getByTestId('file-content')).toContainText('- part 1: todo');
  // A first visit opens the timeline at its end.
  await page.goto(`/t/demo/runs/${runId}`);
  const restored = page.locator(`[data-testid="timeline-item"][data-seq="${lastSeq + 1}"]`);
  await expect(restored).toContainText(`Files restored: notes/plan.md as at #${write.finished}`);
  // It recorded files, so it can be gone back to as well: the action asks for the whole workspace.
  await restored.getByTestId('restore-to-event').click();
  await expect(dialog).toContainText(`Restore the workspace to event #${lastSeq + 1}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});
