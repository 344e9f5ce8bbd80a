import { readFile } from 'node:fs/promises';
import { expect, test } from './support/fixtures';

test('the audit page verifies the chain, filters rows and exports JSON Lines', async ({ page, demoTeam }) => {
  await page.goto(`/t/${demoTeam.slug}`);
  await page.getByTestId('nav-audit').click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByTestId('audit-row').first()).toBeVisible();

  await page.getByTestId('audit-verify').click();
  const verdict = page.getByTestId('audit-verify-result');
  await expect(verdict).toHaveText(/^Chain verified \((\d+) rows\)$/);
  const rows = Number((await verdict.textContent())?.match(/\((\d+) rows\)/)?.[1]);
  expect(rows).toBeGreaterThan(0);

  await page.getByTestId('audit-filter-action').fill('team.seeded');
  await page.getByTestId('audit-filter-apply').click();
  await expect(page.getByTestId('audit-row')).toHaveCount(1);
  await expect(page.getByTestId('audit-row-action')).toHaveText('team.seeded');

  const download = page.waitForEvent('download');
  await page.getByTestId('audit-export').click();
  const file = await (await download).path();
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  const header = JSON.parse(lines[0]!) as { format: string; teamId: string; rows: number };
  expect(header).toMatchObject({ format: 'looplane.audit.v1', teamId: demoTeam.id });
  expect(lines).toHaveLength(header.rows + 1);
  expect(header.rows).toBeGreaterThanOrEqual(rows);
});
