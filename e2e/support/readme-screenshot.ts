import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const SHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots');

/**
 * The README's screenshots are taken by the specs that put the page in the state shown:
 * `E2E_README_SCREENSHOTS=1` writes them to docs/screenshots/NAME.png (a normal run leaves the
 * tree untouched). 1280×800, light theme.
 */
export async function readmeScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_README_SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), animations: 'disabled' });
  if (size) await page.setViewportSize(size);
}
