import { Agent, get as httpGet } from 'node:http';
import { expect, pressShortcut, test } from './support/fixtures';
import { stack } from './support/stack';

test('the team switcher lists teams with roles', async ({ page }) => {
  await page.goto('/t/demo');
  await page.getByTestId('team-switcher').click();
  const option = page.getByTestId('team-option-demo');
  await expect(option).toBeVisible();
  await expect(option).toContainText('admin');
  await page.keyboard.press('Escape');
  await expect(option).toBeHidden();
});

test('keyboard shortcuts g m / g t navigate to settings pages', async ({ page }) => {
  await page.goto('/t/demo');
  await pressShortcut(page, 't');
  await expect(page).toHaveURL(/\/t\/demo\/settings\/tokens$/);
  await pressShortcut(page, 'm');
  await expect(page).toHaveURL(/\/t\/demo\/settings\/members$/);
});

test('the theme toggle switches to dark and the choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/t/demo');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('theme-toggle').click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  // Then explicit light, then back to following the OS.
  await page.getByTestId('theme-toggle').click();
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-preference', 'light');
  await page.getByTestId('theme-toggle').click();
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-preference', 'system');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
});

test('an unknown team is a 404, not a leak', async ({ page }) => {
  const response = await page.goto('/t/no-such-team-here');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toBeVisible();
});

test('an idle keep-alive connection outlives a few seconds: a pooled client reusing it is not reset', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; keepAlive: string | string[] | undefined; socket: unknown }>((resolve, reject) => {
      const req = httpGet(new URL('/api/health', stack.baseURL), { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive'], socket: req.socket }));
      });
      req.on('error', reject);
    });
  try {
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.keepAlive).toBe('timeout=65');
    // Longer than Node's default keep-alive (5 s), which closed the connection under a reusing client.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const second = await get();
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
  } finally {
    agent.destroy();
  }
});

test('health reports both dependencies up', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok', database: 'up', redis: 'up' });
});
