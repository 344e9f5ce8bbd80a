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

test('an admin adds a forge token for GitHub: the kind and forge are listed, the token never is', async ({ page, demoTeam }) => {
  await page.goto(`/t/${demoTeam.slug}/settings/secrets`);
  const name = unique('E2E_FORGE').toUpperCase();
  const token = `ghp_${unique('forge-token')}-F0RG`;
  await page.getByTestId('secret-new').click();
  await page.getByTestId('secret-name').fill(name);
  await page.getByTestId('secret-kind').selectOption('token');
  await page.getByTestId('secret-value').fill(token);
  await page.getByTestId('secret-username').fill('looplane-bot');
  // The API URL applies to a forge only: it opens once one is chosen.
  await expect(page.getByTestId('secret-api-url')).toBeDisabled();
  await page.getByTestId('secret-forge').selectOption('github');
  await page.getByTestId('secret-api-url').fill('https://ghe.example.org/api/v3');
  await page.getByTestId('secret-save').click();

  const row = page.getByTestId(`secret-row-${name}`);
  await expect(row.getByTestId('secret-kind-cell')).toContainText('Forge token');
  await expect(row.getByTestId('secret-kind-cell')).toContainText('GitHub');
  await expect(row.getByTestId('secret-kind-cell')).toContainText('as looplane-bot');
  await expect(row).toContainText('…F0RG');
  await page.reload();
  await expect(row.getByTestId('secret-kind-cell')).toContainText('GitHub');
  expect(await page.content()).not.toContain(token);

  // A replacement starts from the secret's kind and settings.
  await row.getByTestId('secret-replace').click();
  await expect(page.getByTestId('secret-kind')).toHaveValue('token');
  await expect(page.getByTestId('secret-forge')).toHaveValue('github');
  await expect(page.getByTestId('secret-api-url')).toHaveValue('https://ghe.example.org/api/v3');
  await page.getByTestId('secret-cancel').click();

  // An ssh key that is not a private key is refused with the reason; a header stays a header.
  await page.getByTestId('secret-new').click();
  await page.getByTestId('secret-name').fill(`${name}_KEY`);
  await page.getByTestId('secret-kind').selectOption('ssh_key');
  await page.getByTestId('secret-value').fill('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA not-a-private-key');
  await page.getByTestId('secret-save').click();
  await expect(page.getByTestId('secret-form-error')).toContainText('must be a private key in OpenSSH or PEM form');
  await page.getByTestId('secret-cancel').click();

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
