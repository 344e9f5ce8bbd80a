import { signWithReference } from '@looplane/webhooks/testing';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, pressShortcut, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { trpcQuery } from './support/trpc-api';

/**
 * The Triggers page against the real stack: an admin creates a trigger and sees its secret once
 * with its public URL, a delivery signed with the `standardwebhooks` reference implementation
 * starts one run (the same webhook-id again answers the same run), a wrong signature is refused,
 * both are listed with the run linked, and the trigger is disabled, its secret rotated and deleted.
 */

const BODY = JSON.stringify({ text: '20 pallets of A4 paper' });

async function deliver(request: APIRequestContext, url: string, secret: string, webhookId: string, body = BODY) {
  const headers = { 'content-type': 'application/json', ...signWithReference(secret, webhookId, new Date(), body) };
  return request.post(url, { headers, data: body });
}

async function shownSecret(page: Page): Promise<string> {
  const secret = (await page.getByTestId('trigger-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  return secret;
}

test('an admin creates a trigger, fires it with a signed request, sees the delivery and its run, disables it, rotates its secret and deletes it', async ({
  page,
  request,
  demoTeam,
}) => {
  const name = unique('e2e inbox hook');
  await page.goto(`/t/${demoTeam.slug}`);
  await pressShortcut(page, 'h');
  await expect(page).toHaveURL(/\/triggers$/);
  await expect(page.getByTestId('triggers-table')).toBeVisible();

  // Bad input: no agent chosen; the server's message, and nothing is created.
  await page.getByTestId('trigger-new').click();
  await page.getByTestId('trigger-name').fill(name);
  await page.getByTestId('trigger-goal').fill('Draft a quote for {{payload.text}}');
  await page.getByTestId('trigger-save').click();
  await expect(page.getByTestId('trigger-form-error')).toContainText('give the agent');
  const before = await trpcQuery<Array<{ name: string }>>(request, 'triggers.list', stack.bootstrapToken, { teamId: demoTeam.id });
  expect(before.filter((trigger) => trigger.name === name)).toEqual([]);

  await page.getByTestId('trigger-target').selectOption({ label: 'demo' });
  await page.getByTestId('trigger-save').click();
  await expect(page.getByTestId('trigger-secret-shown')).toHaveAttribute('data-kind', 'created');
  const secret = await shownSecret(page);
  const url = (await page.getByTestId('trigger-url').textContent())?.trim() ?? '';
  expect(url).toMatch(new RegExp(`^${stack.baseURL}/api/hooks/[^/]+$`));
  await page.getByTestId('trigger-curl').locator('..').locator('summary').click();
  await expect(page.getByTestId('trigger-curl')).toContainText(url);
  await page.getByTestId('trigger-secret-dismiss').click();
  await expect(page.getByTestId('trigger-secret-shown')).toHaveCount(0);
  const row = page.locator(`[data-testid="trigger-row"][data-trigger-name="${name}"]`);
  await expect(row).toHaveAttribute('data-enabled', 'true');
  await expect(row.getByTestId('trigger-row-url')).toHaveText(url);

  // A signed delivery starts one run; the same webhook-id again answers the same run.
  const webhookId = unique('msg');
  const first = await deliver(request, url, secret, webhookId);
  expect(first.status(), await first.text()).toBe(202);
  const { runId } = (await first.json()) as { runId: string };
  const again = await deliver(request, url, secret, webhookId);
  expect(again.status()).toBe(202);
  expect(((await again.json()) as { runId: string }).runId).toBe(runId);
  const forged = await deliver(request, url, `whsec_${Buffer.from('not the secret of this trigger').toString('base64')}`, unique('msg'));
  expect(forged.status()).toBe(401);

  // Its page lists the deliveries, the accepted ones linking the run.
  await row.getByTestId('trigger-open').click();
  await expect(page.getByTestId('trigger-title')).toHaveText(name);
  const accepted = page.locator(`[data-testid="trigger-delivery"][data-accepted="true"][data-run-id="${runId}"]`);
  await expect(accepted.first()).toBeVisible();
  const refused = page.locator('[data-testid="trigger-delivery"][data-status="401"]');
  await expect(refused.getByTestId('trigger-delivery-reason')).toContainText('webhook-signature');
  await accepted.first().getByTestId('trigger-delivery-run').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByTestId('timeline-item').first()).toBeVisible();
  await page.goBack();

  // Disabled: deliveries are refused. Rotated: a new secret, shown once.
  await page.getByTestId('trigger-toggle').click();
  await expect(page.getByTestId('trigger-state')).toHaveText('disabled');
  expect((await deliver(request, url, secret, unique('msg'))).status()).toBe(409);
  await page.getByTestId('trigger-rotate').click();
  await page.getByTestId('trigger-rotate-confirm').click();
  await expect(page.getByTestId('trigger-secret-shown')).toHaveAttribute('data-kind', 'rotated');
  expect(await shownSecret(page)).not.toBe(secret);

  await page.getByTestId('trigger-delete').click();
  await page.getByTestId('trigger-delete-confirm').click();
  await expect(page).toHaveURL(/\/triggers$/);
  await expect(row).toHaveCount(0);
  expect((await deliver(request, url, secret, unique('msg'))).status()).toBe(404);
});
