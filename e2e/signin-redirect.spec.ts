import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN_EMAIL, stack } from './support/stack';

/**
 * Where sign-in sends a person afterwards (`callbackUrl`) is in the link they followed, so anyone
 * can write it. Chromium drops a tab inside a URL, so `/\t/evil.example/phish` passed a "starts
 * with one slash" check and then took the browser to evil.example (issue #33). In Chromium, from
 * the link, signed out (the form's client-side navigation) and signed in (the page's redirect).
 */
const PHISHING_LINK = '/signin?callbackUrl=%2F%09%2Fevil.example%2Fphish';

/** Every request the page makes to another origin than the app's (a navigation off the site included). */
function offSiteRequests(page: Page): string[] {
  const origin = new URL(stack.baseURL).origin;
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== origin) seen.push(request.url());
  });
  return seen;
}

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('signing in from a link whose callbackUrl hides another site stays on the app', async ({ page }) => {
    const offSite = offSiteRequests(page);
    await page.goto(PHISHING_LINK);
    await page.getByTestId('signin-email').fill(ADMIN_EMAIL);
    await page.getByTestId('signin-password').fill(stack.adminPassword);
    await page.getByTestId('signin-password').press('Enter');
    // The refused callbackUrl is `/`, which lands on the person's first team.
    await expect(page).toHaveURL(/\/t\/[a-z0-9-]+$/);
    expect(new URL(page.url()).origin).toBe(new URL(stack.baseURL).origin);
    expect(offSite).toEqual([]);
  });
});

test('signed in, the same link redirects within the app', async ({ page }) => {
  const offSite = offSiteRequests(page);
  await page.goto(PHISHING_LINK);
  await expect(page).toHaveURL(/\/t\/[a-z0-9-]+$/);
  expect(new URL(page.url()).origin).toBe(new URL(stack.baseURL).origin);
  expect(offSite).toEqual([]);
});

test('signed in, a callbackUrl with control characters or a backslash redirects to / (never a 500)', async ({ page }) => {
  for (const value of ['%2F%0A%2Fevil.example', '%2F%0D%2Fevil.example', '%2F%0D%0ASet-Cookie%3A%20a%3Db', '%2F%5Cevil.example', '%2F%7F%2Fevil.example']) {
    const response = await page.request.get(`/signin?callbackUrl=${value}`, { maxRedirects: 0 });
    expect(response.status(), value).toBe(307);
    expect(response.headers().location, value).toBe('/');
  }
  // A good one is kept.
  const kept = await page.request.get(`/signin?callbackUrl=${encodeURIComponent('/t/demo/runs?status=running')}`, { maxRedirects: 0 });
  expect(kept.status()).toBe(307);
  expect(kept.headers().location).toBe('/t/demo/runs?status=running');
});
