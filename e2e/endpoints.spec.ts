import { expect, test } from './support/fixtures';
import { unique } from './support/stack';

test('an admin creates and tests a faux endpoint, and an OpenAI-compatible one whose key is never shown', async ({ page, demoTeam }) => {
  await page.goto(`/t/${demoTeam.slug}`);
  await page.getByTestId('nav-endpoints').click();
  await expect(page).toHaveURL(/\/endpoints$/);

  const faux = unique('e2e-faux');
  await page.getByTestId('endpoint-new').click();
  await page.getByTestId('endpoint-kind').selectOption('faux');
  await page.getByTestId('endpoint-name').fill(faux);
  await page.getByTestId('endpoint-submit').click();
  const fauxRow = page.getByTestId(`endpoint-row-${faux}`);
  await expect(fauxRow).toContainText('faux-1');
  await fauxRow.getByTestId('endpoint-test').click();
  await expect(fauxRow.getByTestId('endpoint-test-result')).toHaveText(/^OK in \d+ ms$/);

  // A key goes in once and comes back only as its last 4 characters; a dead server is reported.
  const remote = unique('e2e-remote');
  const key = `sk-e2e-${unique('secret')}-7Q9Z`;
  await page.getByTestId('endpoint-new').click();
  await page.getByTestId('endpoint-kind').selectOption('openai');
  await page.getByTestId('endpoint-name').fill(remote);
  await page.getByTestId('endpoint-model').fill('tiny');
  await page.getByTestId('endpoint-url').fill('http://127.0.0.1:9/v1');
  await page.getByTestId('endpoint-key').fill(key);
  await page.getByTestId('endpoint-submit').click();
  const remoteRow = page.getByTestId(`endpoint-row-${remote}`);
  await expect(remoteRow).toContainText('…7Q9Z');
  await page.reload();
  await expect(remoteRow).toBeVisible();
  expect(await page.content()).not.toContain(key);
  await remoteRow.getByTestId('endpoint-test').click();
  await expect(remoteRow.getByTestId('endpoint-test-result')).not.toHaveText(/^OK/);

  // The seeded faux endpoint runs the demo agents: deleting it is refused with the reason.
  const seeded = page.getByTestId('endpoint-row-faux');
  await seeded.getByTestId('endpoint-delete').click();
  await seeded.getByTestId('endpoint-delete-confirm').click();
  await expect(seeded.getByTestId('endpoint-delete-error')).toContainText('is used by agent template');

  for (const name of [faux, remote]) {
    const row = page.getByTestId(`endpoint-row-${name}`);
    await row.getByTestId('endpoint-delete').click();
    await row.getByTestId('endpoint-delete-confirm').click();
    await expect(row).toHaveCount(0);
  }
});
