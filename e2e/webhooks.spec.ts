import { startReceiver, verifyReceived, type TestReceiver } from '@looplane/webhooks/testing';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, pressShortcut, signIn, test } from './support/fixtures';
import { inviteAndSignUp } from './support/invitations';
import { stack, unique } from './support/stack';
import { bearer, trpcQuery } from './support/trpc-api';

/**
 * Settings → Webhooks against the real stack: the worker delivers to a receiver this test starts
 * on 127.0.0.1 (global setup passes LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true), and every request is
 * verified with the `standardwebhooks` package. The first retry comes 5 s after a failure (the
 * production schedule: the worker has no knob to scale it), so the test allows for it.
 */

// Attempt, 5 s retry, redelivery, a test after rotation, each with up to a second of dispatch.
const DELIVERY_TIMEOUT = 25_000;

async function webhookCount(request: APIRequestContext, teamId: string): Promise<number> {
  return (await trpcQuery<unknown[]>(request, 'webhooks.list', stack.bootstrapToken, { teamId })).length;
}

async function shownSecret(page: Page): Promise<string> {
  const secret = (await page.getByTestId('webhook-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  return secret;
}

function deliveryRow(page: Page, deliveryId: string): Locator {
  return page.locator(`[data-testid="delivery-row"][data-delivery-id="${deliveryId}"]`);
}

test.describe('Settings → Webhooks', () => {
  let receiver: TestReceiver;
  test.beforeEach(async () => {
    receiver = await startReceiver();
    // 500 on the first request, then 200: one failed attempt, then the retry is accepted.
    receiver.reply = (_request, index) => (index === 0 ? { status: 500, body: 'not ready yet' } : { status: 200, body: 'accepted' });
  });
  test.afterEach(async () => {
    await receiver.close();
  });

  test('an admin creates an endpoint, sees its secret once, follows a test event through a retry and a redelivery, disables it, rotates its secret and deletes it', async ({
    page,
    request,
    demoTeam,
  }) => {
    test.setTimeout(150_000);
    await page.goto(`/t/${demoTeam.slug}`);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-webhooks').click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);
    await expect(page.getByTestId('webhooks-table')).toBeVisible();
    const before = await webhookCount(request, demoTeam.id);

    // Bad input: the server's messages, inline, and nothing is created.
    await page.getByTestId('webhook-new').click();
    await page.getByTestId('webhook-url').fill('ftp://hooks.example.com/looplane');
    await page.getByTestId('webhook-event-run.finished').check();
    await page.getByTestId('webhook-save').click();
    await expect(page.getByTestId('webhook-form-error')).toContainText('must be an http(s) URL');
    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-event-run.finished').uncheck();
    await page.getByTestId('webhook-save').click();
    await expect(page.getByTestId('webhook-form-error')).toContainText('subscribe to at least one event');
    expect(await webhookCount(request, demoTeam.id)).toBe(before);

    const description = unique('e2e receiver');
    await page.getByTestId('webhook-description').fill(description);
    await page.getByTestId('webhook-event-run.finished').check();
    await page.getByTestId('webhook-event-approval.requested').check();
    await page.getByTestId('webhook-save').click();
    await expect(page.getByTestId('webhook-secret-shown')).toHaveAttribute('data-kind', 'created');
    const secret = await shownSecret(page);
    await page.getByTestId('webhook-secret-dismiss').click();

    const row = page.getByTestId('webhook-row').filter({ hasText: description });
    await expect(row).toHaveAttribute('data-state', 'active');
    await expect(row.getByTestId('webhook-row-url')).toHaveText(receiver.url);
    await expect(row.getByTestId('webhook-row-events')).toHaveText(/run\.finished\s*approval\.requested/);
    const webhookId = (await row.getAttribute('data-webhook-id'))!;
    expect(await webhookCount(request, demoTeam.id)).toBe(before + 1);

    // Shown once: after a reload the secret is nowhere on the page.
    await page.reload();
    await expect(row).toBeVisible();
    await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);

    // A test event: the first attempt gets 500, the retry 5 s later is accepted, with one webhook-id.
    await row.getByTestId('webhook-test').click();
    const deliveryId = (await row.getByTestId('webhook-test-result').getAttribute('data-delivery-id'))!;
    expect(deliveryId).toMatch(/^msg_/);
    await row.getByTestId('webhook-log').click();
    await expect(page).toHaveURL(new RegExp(`/settings/webhooks/${webhookId}$`));
    await expect(page.getByTestId('settings-tab-webhooks')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('webhook-log-url')).toHaveText(receiver.url);

    const delivery = deliveryRow(page, deliveryId);
    await expect(delivery).toHaveAttribute('data-event-type', 'webhook.test');
    await expect(delivery.getByTestId('delivery-webhook-id')).toHaveText(deliveryId);
    // The failed attempt shows without a reload, with the retry to come.
    await expect(delivery).toHaveAttribute('data-attempts', '1', { timeout: DELIVERY_TIMEOUT });
    await expect(delivery).toHaveAttribute('data-status', 'pending');
    await expect(delivery.getByTestId('delivery-next-attempt')).not.toHaveText('—');
    await delivery.getByTestId('delivery-expand').click();
    const attempts = page.locator(`[data-testid="delivery-detail"][data-delivery-id="${deliveryId}"]`).getByTestId('delivery-attempt');
    await expect(attempts).toHaveCount(1);
    await expect(attempts.nth(0)).toHaveAttribute('data-status-code', '500');
    await expect(attempts.nth(0).getByTestId('delivery-attempt-excerpt')).toHaveText('not ready yet');
    // Then the accepted retry.
    await expect(delivery).toHaveAttribute('data-status', 'delivered', { timeout: DELIVERY_TIMEOUT });
    await expect(delivery).toHaveAttribute('data-attempts', '2');
    await expect(delivery.getByTestId('delivery-next-attempt')).toHaveText('—');
    await expect(attempts).toHaveCount(2);
    await expect(attempts.nth(1)).toHaveAttribute('data-status-code', '200');
    await expect(attempts.nth(1).getByTestId('delivery-attempt-outcome')).toHaveText('HTTP 200');
    await expect(attempts.nth(1).getByTestId('delivery-attempt-excerpt')).toHaveText('accepted');

    const [first, retry] = await receiver.waitFor(2);
    expect([first!.id, retry!.id]).toEqual([deliveryId, deliveryId]);
    const verified = verifyReceived(retry!, secret);
    expect(verified.type).toBe('webhook.test');
    expect(verified.data.webhookId).toBe(webhookId);

    // Redeliver: webhooks.redeliver sends the same delivery again, with the same webhook-id and
    // body (the router's contract, so a receiver can tell a duplicate), as a new attempt.
    await delivery.getByTestId('delivery-redeliver').click();
    await expect(delivery.getByTestId('delivery-redeliver-result')).toBeVisible();
    const [, , again] = await receiver.waitFor(3, DELIVERY_TIMEOUT);
    expect(again!.id).toBe(deliveryId);
    expect(again!.body).toBe(retry!.body);
    expect(again!.headers['webhook-timestamp']).toBeDefined();
    expect(verifyReceived(again!, secret).type).toBe('webhook.test');
    await expect(delivery).toHaveAttribute('data-attempts', '3', { timeout: DELIVERY_TIMEOUT });
    await expect(delivery).toHaveAttribute('data-status', 'delivered');
    await expect(attempts).toHaveCount(3);
    await expect(page.getByTestId('webhook-log-counts')).toContainText('1 delivered');

    // Disabled: the page offers no test send, and the router refuses one (412), so nothing goes out.
    await page.getByTestId('webhook-log-back').click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);
    await row.getByTestId('webhook-toggle').click();
    await expect(row).toHaveAttribute('data-state', 'disabled-by-admin');
    await expect(row.getByTestId('webhook-row-reason')).toContainText('disabled by an admin');
    await expect(row.getByTestId('webhook-test')).toBeDisabled();
    const refused = await request.post('/api/trpc/webhooks.test', {
      headers: bearer(stack.bootstrapToken),
      data: { json: { teamId: demoTeam.id, webhookId } },
    });
    expect(refused.status()).toBe(412);
    expect(JSON.stringify(await refused.json())).toContain('The webhook is disabled (disabled by an admin); enable it first');
    await row.getByTestId('webhook-log').click();
    await expect(deliveryRow(page, deliveryId).getByTestId('delivery-redeliver')).toBeDisabled();
    await expect(page.getByTestId('webhook-log-state')).toHaveText('disabled');
    await expect(page.getByTestId('webhook-log-reason')).toContainText('Disabled by an admin');
    await expect(page.getByTestId('delivery-row')).toHaveCount(1);
    // A dispatcher pass (1 s) and more: still only the three requests.
    await page.waitForTimeout(2500);
    expect(receiver.requests).toHaveLength(3);

    // Enabled again, with a rotated secret: the next delivery verifies with the new secret only.
    await page.getByTestId('webhook-log-back').click();
    await row.getByTestId('webhook-toggle').click();
    await expect(row).toHaveAttribute('data-state', 'active');
    await row.getByTestId('webhook-rotate').click();
    await row.getByTestId('webhook-rotate-confirm').click();
    await expect(page.getByTestId('webhook-secret-shown')).toHaveAttribute('data-kind', 'rotated');
    const rotated = await shownSecret(page);
    expect(rotated).not.toBe(secret);
    await page.getByTestId('webhook-secret-dismiss').click();
    await row.getByTestId('webhook-test').click();
    const secondId = (await row.getByTestId('webhook-test-result').getAttribute('data-delivery-id'))!;
    expect(secondId).not.toBe(deliveryId);
    const [, , , afterRotation] = await receiver.waitFor(4, DELIVERY_TIMEOUT);
    expect(afterRotation!.id).toBe(secondId);
    expect(verifyReceived(afterRotation!, rotated).type).toBe('webhook.test');
    expect(() => verifyReceived(afterRotation!, secret)).toThrow();
    // Newest first in the log.
    await row.getByTestId('webhook-log').click();
    await expect(page.getByTestId('delivery-row').first()).toHaveAttribute('data-delivery-id', secondId);
    await expect(deliveryRow(page, secondId)).toHaveAttribute('data-status', 'delivered', { timeout: DELIVERY_TIMEOUT });

    // Delete, confirmed: the endpoint and its log are gone.
    await page.getByTestId('webhook-log-back').click();
    await row.getByTestId('webhook-delete').click();
    await row.getByTestId('webhook-delete-confirm').click();
    await expect(row).toHaveCount(0);
    expect(await webhookCount(request, demoTeam.id)).toBe(before);
  });
});

test('g w jumps to the Webhooks settings page', async ({ page }) => {
  await page.goto('/t/demo');
  await pressShortcut(page, 'w');
  await expect(page).toHaveURL(/\/t\/demo\/settings\/webhooks$/);
  await expect(page.getByTestId('webhooks-table')).toBeVisible();
});

test('a viewer sees that webhooks are for admins, with no error', async ({ browser, request, demoTeam }) => {
  const email = `${unique('webhook-viewer')}@example.test`;
  const password = 'viewer-password-1';
  await inviteAndSignUp(request, demoTeam.id, email, 'viewer', password);
  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  const refusals: string[] = [];
  viewer.on('response', (response) => {
    if (response.url().includes('/api/trpc/') && response.url().includes('webhooks.')) refusals.push(`${response.status()} ${response.url()}`);
  });
  await signIn(viewer, email, password);
  await viewer.goto(`/t/${demoTeam.slug}/settings`);
  await viewer.getByTestId('settings-tab-webhooks').click();
  await expect(viewer).toHaveURL(/\/settings\/webhooks$/);
  await expect(viewer.getByTestId('webhooks-admin-only')).toContainText('admins only');
  await expect(viewer.getByTestId('webhooks-table')).toHaveCount(0);
  await expect(viewer.getByTestId('webhook-new')).toHaveCount(0);
  // A delivery log's address shows the same, whatever the id.
  await viewer.goto(`/t/${demoTeam.slug}/settings/webhooks/not-a-webhook`);
  await expect(viewer.getByTestId('webhooks-admin-only')).toBeVisible();
  await expect(viewer.getByTestId('webhook-load-error')).toHaveCount(0);
  // The page asks the admin-only router nothing.
  expect(refusals).toEqual([]);
  await context.close();
});
