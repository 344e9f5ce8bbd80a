import { test as base, expect, request as playwrightRequest, type Browser, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_EMAIL, stack } from './stack';
import { trpcQuery, type Me } from './trpc-api';

/**
 * Collects the page's Content-Security-Policy violations (Chromium logs each on the console; the
 * init script, which CSP does not govern, reports `securitypolicyviolation` events too). Returns
 * the check to run when the test is done: the dashboard must work under its CSP, not just load.
 */
function watchCsp(page: Page): () => void {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) violations.push(message.text());
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return () => expect(violations, 'Content-Security-Policy violations on the page').toEqual([]);
}

/** Signs in through the sign-in page and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/signin');
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-password').press('Enter');
  await expect(page).toHaveURL(/\/t\/[a-z0-9-]+$/);
}

interface WorkerFixtures {
  /** storageState file of a signed-in admin, made once per worker (and again should that session end). */
  adminState: string;
}

/** Signs the admin in through the page and saves the session to `file`. */
async function saveAdminSession(browser: Browser, file: string): Promise<void> {
  const page = await browser.newPage({ baseURL: stack.baseURL });
  await signIn(page, ADMIN_EMAIL, stack.adminPassword);
  await page.context().storageState({ path: file });
  await page.close();
}

/** Whether the session saved in `file` still counts (a sign-out of the admin elsewhere ends it). */
async function sessionAlive(file: string): Promise<boolean> {
  const context = await playwrightRequest.newContext({ baseURL: stack.baseURL, storageState: file });
  try {
    return (await context.get('/api/trpc/me')).status() === 200;
  } finally {
    await context.dispose();
  }
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
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter and requires an object pattern there, even an empty one.
  baseURL: async ({}, use) => use(stack.baseURL),
  adminState: [
    async ({ browser }, use, workerInfo) => {
      const dir = join(workerInfo.project.outputDir, '.auth');
      await mkdir(dir, { recursive: true });
      const file = join(dir, `admin-${workerInfo.workerIndex}.json`);
      await saveAdminSession(browser, file);
      await use(file);
    },
    { scope: 'worker' },
  ],
  // Signing out ends every session of that user (server-side session versions): a test that signs
  // the admin out ends this saved one too, so it is checked, and renewed, before each test.
  storageState: async ({ adminState, browser }, use) => {
    if (!(await sessionAlive(adminState))) await saveAdminSession(browser, adminState);
    await use(adminState);
  },
  page: async ({ page }, use) => {
    const checkCsp = watchCsp(page);
    await use(page);
    checkCsp();
  },
  demoTeam: async ({ request }, use) => {
    const me = await trpcQuery<Me>(request, 'me', stack.bootstrapToken);
    const demo = me.teams.find((team) => team.slug === 'demo');
    if (!demo) throw new Error('the bootstrap token does not see the demo team');
    await use(demo);
  },
  separatePage: async ({ browser }, use) => {
    const context = await browser.newContext({ baseURL: stack.separateWebURL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const checkCsp = watchCsp(page);
    await signIn(page, ADMIN_EMAIL, stack.adminPassword);
    await use(page);
    checkCsp();
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
