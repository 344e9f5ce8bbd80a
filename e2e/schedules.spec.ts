import type { APIRequestContext } from '@playwright/test';
import { expect, pressShortcut, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { trpcQuery } from './support/trpc-api';

/**
 * The Schedules page against the real stack: a schedule is created in the form (a zone the server
 * does not know is refused first), its next tick is shown in its own zone, "Run now" starts a run
 * that its tick list links, pausing clears the next tick, and it is deleted. The cron fires once a
 * year (1 January, 03:00 Berlin), so no tick of the workers' own shows up while the test runs.
 */

interface ScheduleView {
  id: string;
  name: string;
  enabled: boolean;
  nextFireAt: string | null;
  timezone: string;
  ticks: Array<{ outcome: string; runId: string | null; reason: string | null }>;
}

async function schedulesNamed(request: APIRequestContext, teamId: string, name: string): Promise<ScheduleView[]> {
  const all = await trpcQuery<ScheduleView[]>(request, 'schedules.list', stack.bootstrapToken, { teamId });
  return all.filter((schedule) => schedule.name === name);
}

test('an operator creates a schedule, sees its next tick, runs it now, follows the run and pauses it', async ({ page, request, demoTeam }) => {
  const name = unique('e2e nightly inbox');
  await page.goto(`/t/${demoTeam.slug}`);
  await pressShortcut(page, 'c');
  await expect(page).toHaveURL(/\/schedules$/);
  await expect(page.getByTestId('schedules-table')).toBeVisible();

  await page.getByTestId('schedule-new').click();
  await page.getByTestId('schedule-name').fill(name);
  await page.getByTestId('schedule-agent').selectOption({ label: 'demo' });
  await page.getByTestId('schedule-cron').fill('0 3 1 1 *');
  await page.getByTestId('schedule-timezone').fill('Mars/Olympus_Mons');
  await page.getByTestId('schedule-goal').fill('Summarise the purchasing inbox as of {{scheduledAt}}');
  await page.getByTestId('schedule-save').click();
  // Bad input: the server's message, and nothing is created.
  await expect(page.getByTestId('schedule-form-error')).toContainText('IANA time zone');
  expect(await schedulesNamed(request, demoTeam.id, name)).toEqual([]);

  await page.getByTestId('schedule-timezone').fill('Europe/Berlin');
  await page.getByTestId('schedule-save').click();
  await expect(page).toHaveURL(/\/schedules\/[^/]+$/);
  const [stored] = await schedulesNamed(request, demoTeam.id, name);
  expect(stored).toMatchObject({ enabled: true, timezone: 'Europe/Berlin' });
  expect(stored?.nextFireAt).not.toBeNull();

  // The next tick: the stored time, as 03:00 in Berlin (the cron's own zone) and in the viewer's.
  await expect(page.getByTestId('schedule-title')).toHaveText(name);
  await expect(page.getByTestId('schedule-state')).toHaveText('enabled');
  const nextFire = page.getByTestId('schedule-next-fire');
  await expect(nextFire).toHaveAttribute('data-at', new Date(stored!.nextFireAt!).toISOString());
  await expect(nextFire.getByTestId('schedule-next-fire-zone')).toContainText('Jan 1');
  await expect(nextFire.getByTestId('schedule-next-fire-zone')).toContainText('3:00:00 AM');
  await expect(nextFire.getByTestId('schedule-next-fire-local')).toContainText('your time');
  await expect(page.getByTestId('schedule-ticks')).toContainText('No ticks yet');

  // Run now: a run starts at once and the tick list links it.
  await page.getByTestId('schedule-run-now').click();
  const started = page.getByTestId('schedule-run-now-result');
  await expect(started).toBeVisible();
  const runId = (await started.textContent())?.replace('Run started:', '').trim() ?? '';
  expect(runId).not.toBe('');
  const tick = page.locator(`[data-testid="schedule-tick"][data-run-id="${runId}"]`);
  await expect(tick).toHaveAttribute('data-outcome', 'started');
  await expect(tick.getByTestId('schedule-tick-reason')).toHaveText('run now');
  const run = await trpcQuery<{ goal: string }>(request, 'runs.get', stack.bootstrapToken, { teamId: demoTeam.id, runId });
  expect(run.goal).toMatch(/^Summarise the purchasing inbox as of \d{4}-\d\d-\d\dT/);
  await tick.getByTestId('schedule-tick-run').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByTestId('run-status')).toBeVisible();
  await page.goBack();

  // Pause: no next tick, here and in the store.
  await page.getByTestId('schedule-pause').click();
  await expect(page.getByTestId('schedule-state')).toHaveText('paused');
  await expect(page.getByTestId('schedule-next-fire')).toHaveCount(0);
  expect((await schedulesNamed(request, demoTeam.id, name))[0]).toMatchObject({ enabled: false, nextFireAt: null });

  // The list shows it paused, with its last tick's run.
  await page.getByTestId('schedule-back').click();
  const row = page.locator(`[data-testid="schedule-row"][data-schedule-name="${name}"]`);
  await expect(row).toHaveAttribute('data-state', 'paused');
  await expect(row.getByTestId('schedule-row-timing')).toHaveText('cron 0 3 1 1 * (Europe/Berlin)');
  await expect(row.getByTestId('schedule-row-last-run')).toHaveAttribute('href', new RegExp(`/runs/${runId}$`));

  // Resume from the list, then delete it from its page.
  await row.getByTestId('schedule-resume').click();
  await expect(row).toHaveAttribute('data-state', 'enabled');
  await expect(row.getByTestId('schedule-next-fire')).toBeVisible();
  await row.getByTestId('schedule-open').click();
  await expect(page.getByTestId('schedule-title')).toHaveText(name);
  await page.getByTestId('schedule-delete').click();
  await page.getByTestId('schedule-delete-confirm').click();
  await expect(page).toHaveURL(/\/schedules$/);
  await expect(row).toHaveCount(0);
  expect(await schedulesNamed(request, demoTeam.id, name)).toEqual([]);
});
