import { readFile } from 'node:fs/promises';
import { expect, test } from './support/fixtures';

/**
 * The Costs page keeps its period and view in the URL (a view can be shared and reloaded), draws
 * the chart with its axes, and exports the shown view as CSV.
 */
test('costs: period and view from the URL, kept over a reload; the chart has axes; CSV export', async ({ page }) => {
  await page.goto('/t/demo/costs?days=7&view=byEndpoint');
  await expect(page.getByTestId('costs-days')).toHaveValue('7');
  await expect(page.getByTestId('costs-view-byEndpoint')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: /in 7 days/ })).toBeVisible();
  const chart = page.getByTestId('costs-chart');
  await expect(chart.locator('.recharts-xAxis')).toBeVisible();
  await expect(chart.locator('.recharts-yAxis')).toBeVisible();
  await expect(chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick')).not.toHaveCount(0);

  await page.getByTestId('costs-days').selectOption('90');
  await expect(page).toHaveURL(/[?&]days=90\b/);
  await expect(page).toHaveURL(/[?&]view=byEndpoint\b/);
  // The default view leaves the URL.
  await page.getByTestId('costs-view-byAgent').click();
  await expect(page).not.toHaveURL(/view=/);
  await page.getByTestId('costs-view-byEdge').click();
  await expect(page).toHaveURL(/[?&]view=byEdge\b/);
  await page.reload();
  await expect(page.getByTestId('costs-days')).toHaveValue('90');
  await expect(page.getByTestId('costs-view-byEdge')).toHaveAttribute('aria-selected', 'true');

  // A value the page does not offer falls back to the default.
  await page.goto('/t/demo/costs?days=5&view=nope');
  await expect(page.getByTestId('costs-days')).toHaveValue('30');
  await expect(page.getByTestId('costs-view-byAgent')).toHaveAttribute('aria-selected', 'true');

  const download = page.waitForEvent('download');
  await page.getByTestId('costs-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('looplane-demo-spend-by-agent-30d.csv');
  const text = await readFile((await file.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toBe('day,agent,id,cost_micros,cost_usd');
});
