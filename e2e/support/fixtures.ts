import { test as base, expect, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_EMAIL, stack } from './stack';
import { trpcQuery, type Me } from './trpc-api';

/** Signs in through the sign-in page and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/signin');
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-password').press('Enter');
  await expect(page).toHaveURL(/\/t\/[a-z0-9-]+$/);
}

interface WorkerFixtures {
  /** storageState file of a signed-in admin, made once per worker. */
  adminState: string;
}

interface TestFixtures {
  /** The demo team, as the bootstrap token sees it. */
  demoTeam: { id: string; slug: string };
  /**
   * A page signed in as the admin on the separate web (`stack.separateWebURL`), in a context of
   * its own: relative URLs go there, and it signs in there rather than reusing the first web's
   * cookies.
   */
  separatePage: Page;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Global setup publishes the URL after the config was read, so resolve it here.
  baseURL: async ({}, use) => use(stack.baseURL),
  adminState: [
    async ({ browser }, use, workerInfo) => {
      const dir = join(workerInfo.project.outputDir, '.auth');
      await mkdir(dir, { recursive: true });
      const file = join(dir, `admin-${workerInfo.workerIndex}.json`);
      const page = await browser.newPage({ baseURL: stack.baseURL });
      await signIn(page, ADMIN_EMAIL, stack.adminPassword);
      await page.context().storageState({ path: file });
      await page.close();
      await use(file);
    },
    { scope: 'worker' },
  ],
  storageState: async ({ adminState }, use) => use(adminState),
  demoTeam: async ({ request }, use) => {
    const me = await trpcQuery<Me>(request, 'me', stack.bootstrapToken);
    const demo = me.teams.find((team) => team.slug === 'demo');
    if (!demo) throw new Error('the bootstrap token does not see the demo team');
    await use(demo);
  },
  separatePage: async ({ browser }, use) => {
    const context = await browser.newContext({ baseURL: stack.separateWebURL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await signIn(page, ADMIN_EMAIL, stack.adminPassword);
    await use(page);
    await context.close();
  },
});

export { expect };

/** Presses `g` then `key` once the page's keyboard shortcuts are listening (not before hydration). */
export async function pressShortcut(page: Page, key: string): Promise<void> {
  await page.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
  await page.keyboard.press('g');
  await page.keyboard.press(key);
}
