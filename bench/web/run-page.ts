/// <reference lib="dom" />
// Page timings of the run page on a long run: how soon a run of 10,000 events is usable.
// Run: `npx tsx bench/web/run-page.ts [--quick] [--repeat N] [--events N]
//        [--base-url URL --token T --password P --database-url URL]`
// Without --base-url it starts the product (`looplane start`, embedded Postgres and Redis, as the
// e2e suite does) and stops it after. It seeds one run of --events events (default 10,000), then,
// --repeat times (5; 1 with --quick), opens the run page in Debian's Chromium in a fresh browser
// context (nothing cached; after one unmeasured open that warms the server) and measures:
//   interactive: from navigation until the timeline shows the run's last event in view, scrolled
//     to the end, and a control (the branch panel's Hide/Show) answers a click;
//   reload: the same after a reload, when the page resumes from the events it held;
//   pageBack: "Earlier events" until the page before the first one held is in the timeline;
//   longestTask: the longest main-thread task while opening (a frozen page shows here).
// Prints one JSON line `{ bench: 'run-page', figures, ... }`. No timing is asserted; the goal
// (interactive within 2 s) is reported as met or not.
import { chromium, type Browser, type Page } from 'playwright-core';
import { stat } from '../compare/stats';
import { startProduct, type Product } from './product';
import { seedLongRun } from './seed-run';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const REPEAT = Number(arg('repeat') ?? (quick ? 1 : 5));
const EVENTS = Number(arg('events') ?? 10_000);
const GOAL_MS = 2000;
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function product(): Promise<Product> {
  const baseURL = arg('base-url');
  if (!baseURL) return startProduct();
  const [token, password, databaseUrl] = [arg('token'), arg('password'), arg('database-url')];
  if (!token || !password || !databaseUrl) throw new Error('--base-url needs --token, --password and --database-url');
  return { baseURL, token, password, databaseUrl, stop: async () => {} };
}

/** The admin's signed-in browser state (cookies), made once. */
async function signedIn(browser: Browser, p: Product) {
  const context = await browser.newContext({ baseURL: p.baseURL });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.getByTestId('signin-email').fill('admin@looplane.local');
  await page.getByTestId('signin-password').fill(p.password);
  await page.getByTestId('signin-password').press('Enter');
  await page.waitForURL(/\/t\/[a-z0-9-]+$/);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** Waits until the last event's row is in the timeline's view with nothing below it, then clicks a control and waits for its answer. */
async function usable(page: Page, lastEventNo: number): Promise<void> {
  await page.waitForFunction(
    (no) => {
      const timeline = document.querySelector('[data-testid="run-timeline"]');
      const row = timeline?.querySelector(`[data-testid="timeline-item"][data-event-no="${no}"]`);
      if (!timeline || !row) return false;
      const [t, r] = [timeline.getBoundingClientRect(), row.getBoundingClientRect()];
      return r.top >= t.top - 1 && r.bottom <= t.bottom + 1 && timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 2;
    },
    lastEventNo,
    { timeout: 60_000, polling: 'raf' },
  );
  const toggle = page.getByTestId('sessions-toggle');
  const before = await toggle.textContent();
  await toggle.click();
  await page.waitForFunction((text) => document.querySelector('[data-testid="sessions-toggle"]')?.textContent !== text, before, { polling: 'raf' });
}

const held = (page: Page) => page.getByTestId('run-stream-stats').getAttribute('data-received').then(Number);

async function main() {
  const p = await product();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
  try {
    const { runId, lastEventNo } = await seedLongRun(p, EVENTS);
    const storageState = await signedIn(browser, p);
    // One open first, not measured: the server's first render of the route (and its caches) is not what a supervisor waits for.
    const warm = await browser.newContext({ baseURL: p.baseURL, storageState });
    const warmPage = await warm.newPage();
    await warmPage.goto(`/t/demo/runs/${runId}`);
    await usable(warmPage, lastEventNo);
    await warm.close();
    const raw: Array<{ interactiveMs: number; reloadMs: number; pageBackMs: number; longestTaskMs: number; rowsInDom: number }> = [];
    for (let i = 0; i < REPEAT; i++) {
      const context = await browser.newContext({ baseURL: p.baseURL, storageState, viewport: { width: 1280, height: 800 } });
      await context.addInitScript(() => {
        const w = window as unknown as { __longestTask: number };
        w.__longestTask = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.__longestTask = Math.max(w.__longestTask, entry.duration);
        }).observe({ type: 'longtask', buffered: true });
      });
      const page = await context.newPage();
      const url = `/t/demo/runs/${runId}`;
      let started = performance.now();
      await page.goto(url, { waitUntil: 'commit' });
      await usable(page, lastEventNo);
      const interactiveMs = performance.now() - started;
      const longestTaskMs = await page.evaluate(() => (window as unknown as { __longestTask: number }).__longestTask);
      const rowsInDom = await page.getByTestId('timeline-item').count();

      const before = await held(page);
      started = performance.now();
      await page.getByTestId('timeline-load-earlier').click();
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="run-stream-stats"]')?.getAttribute('data-received')) > n, before, {
        polling: 'raf',
      });
      const pageBackMs = performance.now() - started;

      // The page saves what it holds a second after a change, and on pagehide.
      await page.waitForTimeout(1200);
      started = performance.now();
      await page.reload({ waitUntil: 'commit' });
      await page.getByTestId('run-timeline').evaluate(() => undefined);
      await usable(page, lastEventNo);
      const reloadMs = performance.now() - started;
      raw.push({ interactiveMs, reloadMs, pageBackMs, longestTaskMs, rowsInDom });
      await context.close();
    }
    const figure = (key: string, label: string, values: number[], goal?: string) => {
      const looplane = stat(values, 1);
      return { key: `run-page.${key}`, label, unit: 'ms', looplane, goals: goal ? [{ text: goal, met: looplane.median <= GOAL_MS }] : [] };
    };
    const figures = [
      figure(
        'interactive',
        `run page of a ${EVENTS.toLocaleString('en')}-event run: interactive (at the end, a control answers)`,
        raw.map((r) => r.interactiveMs),
        `median ≤ ${GOAL_MS} ms`,
      ),
      figure(
        'reload',
        'run page reload: interactive again (resumed from the events held)',
        raw.map((r) => r.reloadMs),
      ),
      figure(
        'page-back',
        'run page: one page of earlier events',
        raw.map((r) => r.pageBackMs),
      ),
      figure(
        'longest-task',
        'run page: longest main-thread task while opening',
        raw.map((r) => r.longestTaskMs),
      ),
    ];
    console.log(JSON.stringify({ bench: 'run-page', events: EVENTS, lastEventNo, repeat: REPEAT, quick, figures, raw }));
  } finally {
    await browser.close();
    await p.stop();
  }
}

await main();
