import { expect, pressShortcut, test } from './support/fixtures';
import { unique } from './support/stack';

test('an admin adds a secret whose value is never shown again, replaces it and deletes it', async ({ page, demoTeam }) => {
  await page.goto(`/t/${demoTeam.slug}`);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-secrets').click();
  await expect(page).toHaveURL(/\/settings\/secrets$/);

  const name = unique('E2E_TOKEN').toUpperCase();
  const value = `Bearer ${unique('secret-value')}-K7Q2`;
  await page.getByTestId('secret-new').click();
  await page.getByTestId('secret-name').fill(name);
  await page.getByTestId('secret-value').fill(value);
  await page.getByTestId('secret-save').click();
  const row = page.getByTestId(`secret-row-${name}`);
  await expect(row).toContainText('…K7Q2');
  await expect(row).toContainText('not used by the active policy');
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(value);

  // A second add of the same name is refused with the reason; replacing sets a new value.
  await page.getByTestId('secret-new').click();
  await page.getByTestId('secret-name').fill(name);
  await page.getByTestId('secret-value').fill('another-value-1111');
  await page.getByTestId('secret-save').click();
  await expect(page.getByTestId('secret-form-error')).toContainText('already exists');
  await page.getByTestId('secret-cancel').click();
  await row.getByTestId('secret-replace').click();
  await page.getByTestId('secret-value').fill('rotated-value-9X8Y');
  await page.getByTestId('secret-save').click();
  await expect(row).toContainText('…9X8Y');

  await row.getByTestId('secret-delete').click();
  await row.getByTestId('secret-delete-confirm').click();
  await expect(row).toHaveCount(0);
});

test('g k jumps to the Secrets settings page', async ({ page }) => {
  await page.goto('/t/demo');
  await pressShortcut(page, 'k');
  await expect(page).toHaveURL(/\/t\/demo\/settings\/secrets$/);
  await expect(page.getByTestId('secrets-table')).toBeVisible();
});
