import { test as base, expect } from '@playwright/test';
import { stack } from './support/stack';

/**
 * A sign-in form sent before the page's script has run (a slow network, a blocked script) is a
 * plain form submission: it must never put the password in the URL, where history, proxies and
 * server logs keep it. Both forms that take a password are checked with JavaScript off.
 */
base('with JavaScript off, the sign-in form posts: the password never reaches the URL', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: stack.baseURL, javaScriptEnabled: false, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const secret = 'not-in-the-url-1234';
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.goto('/signin');
  await page.getByTestId('signin-email').fill('someone@example.test');
  await page.getByTestId('signin-password').fill(secret);
  await page.getByTestId('signin-submit').click();
  await page.waitForLoadState('load');
  expect(urls.length).toBeGreaterThan(1);
  for (const url of urls) expect(url).not.toContain(secret);
  expect(page.url()).not.toContain('password');
  await expect(page.getByTestId('signin-form')).toHaveAttribute('method', 'post');
  await context.close();
});
