import { expect, pressShortcut, test } from './support/fixtures';
import { stack } from './support/stack';
import { trpcQuery } from './support/trpc-api';

/**
 * Settings → Sandbox: the capability check of the live worker (`looplane start` runs one, as root
 * here, like CI). bwrap must work on this kind of host; every driver shows its reason and limits.
 */
interface SandboxView {
  workers: Array<{ workerId: string; selectedDriver: string; available: boolean; drivers: Array<{ driver: string; works: boolean }> }>;
}

test('the Sandbox settings page shows bwrap working on the live worker, with its limits', async ({ page, request, demoTeam }) => {
  // The worker records its probe at start and the other drivers shortly after: wait for all four.
  let found: SandboxView['workers'][number] | undefined;
  await expect
    .poll(
      async () => {
        const view = await trpcQuery<SandboxView>(request, 'system.sandbox', stack.bootstrapToken, { teamId: demoTeam.id });
        found = view.workers.find((w) => w.drivers.length === 5);
        return found !== undefined;
      },
      { timeout: 45_000 },
    )
    .toBe(true);
  const worker = found!;
  expect(worker).toMatchObject({ selectedDriver: 'bwrap', available: true });

  await page.goto('/t/demo');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-sandbox').click();
  await expect(page).toHaveURL(/\/t\/demo\/settings\/sandbox$/);

  const card = page.getByTestId(`sandbox-worker-${worker.workerId}`);
  await expect(card.getByTestId('sandbox-worker-status')).toHaveText('sandboxed tools available');
  const bwrap = card.getByTestId('sandbox-driver-bwrap');
  await expect(bwrap).toHaveAttribute('data-works', 'true');
  await expect(bwrap.getByTestId('sandbox-driver-status')).toHaveText('works');
  await expect(bwrap).toContainText('default');
  // Each limit says whether it holds and by what.
  await expect(bwrap.getByTestId('sandbox-limit-bwrap-wallTimeMs')).toContainText('yes');
  await expect(bwrap.getByTestId('sandbox-limit-bwrap-wallTimeMs')).toContainText('supervisor');
  await expect(bwrap.getByTestId('sandbox-limit-bwrap-outputBytes')).toContainText('supervisor');
  // dangerous-none never works in production, and says why.
  const none = card.getByTestId('sandbox-driver-dangerous-none');
  await expect(none).toHaveAttribute('data-works', 'false');
  await expect(none.getByTestId('sandbox-driver-reason')).toContainText('only in development');
  await expect(card.getByTestId('sandbox-driver-podman')).toBeVisible();
});

test('g x jumps to the Sandbox settings page', async ({ page }) => {
  await page.goto('/t/demo');
  await pressShortcut(page, 'x');
  await expect(page).toHaveURL(/\/t\/demo\/settings\/sandbox$/);
  await expect(page.getByTestId('sandbox-panel')).toBeVisible();
});
