import { defineConfig } from '@playwright/test';

/**
 * Specs run against a real stack in Debian's Chromium. Without E2E_BASE_URL, global setup starts
 * the whole product (`looplane start`, embedded Postgres + Redis) on a free port, plus a second web
 * on its database with a LOOPLANE_HOME of its own, and stops both after. With E2E_BASE_URL, also
 * set E2E_ADMIN_PASSWORD and E2E_BOOTSTRAP_TOKEN for that server (and, for the session-files specs,
 * E2E_LOOPLANE_HOME, its data directory, and E2E_SEPARATE_WEB_URL / E2E_SEPARATE_WEB_HOME, a web
 * on the same database whose data directory no worker uses).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './support/global-setup.ts',
  // A flaky test is a bug: no retries, one worker, specs in file order.
  retries: 0,
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT ?? 'test-results/report.json' }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
