import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { longRun } from './support/long-run';

/**
 * The run page's one timeline on a run of 10,000 events: it opens at the end (the last event's
 * row and label in view), holds only the newest events and pages back on demand, and a reload
 * resumes the stream after the last event the page held: no request reads the run from event 0.
 * How fast it does this is measured by bench/web/run-page.ts, not asserted here.
 */
const EVENTS = 10_000;

/**
 * The event-reading requests a page makes: where the stream starts (its `lastEventId`, or
 * `tail:N` for the last N events) and `runs.events`' `after` for each page read.
 */
function eventReads(page: Page): { stream: Array<number | string>; pages: number[] } {
  const reads = { stream: [] as Array<number | string>, pages: [] as number[] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/\/api\/runs\/[^/]+\/stream$/.test(url.pathname)) {
      const tail = url.searchParams.get('tail');
      reads.stream.push(tail !== null ? `tail:${tail}` : Number(url.searchParams.get('lastEventId') ?? request.headers()['last-event-id'] ?? 0));
    }
    if (url.pathname.startsWith('/api/trpc/') && url.pathname.includes('runs.events')) {
      const input = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, { json?: { after?: number; limit?: number } }>;
      for (const call of Object.values(input)) {
        // The run's first event alone (where its files came from, read once by the page header) is one row, not a page.
        if (call.json?.limit === 1 && !call.json.after) continue;
        reads.pages.push(call.json?.after ?? 0);
      }
    }
  });
  return reads;
}

const stats = async (page: Page) => {
  const el = page.getByTestId('run-stream-stats');
  return { received: Number(await el.getAttribute('data-received')), last: Number(await el.getAttribute('data-last-event-no')) };
};

test('a 10,000-event run opens at its end, pages back on demand, and a reload resumes after the last event held', async ({ page, request, demoTeam }) => {
  test.setTimeout(120_000);
  const { runId, lastEventNo } = await longRun(request, demoTeam.id, EVENTS);
  const reads = eventReads(page);

  await page.goto(`/t/demo/runs/${runId}`);
  const timeline = page.getByTestId('run-timeline');
  const lastRow = timeline.locator(`[data-testid="timeline-item"][data-event-no="${lastEventNo}"]`);
  await expect(lastRow).toBeInViewport();
  await expect(lastRow).toContainText('Message');
  await expect(lastRow).toContainText(`The last of the seeded events (#${EVENTS - 1})`);
  await expect.poll(() => stats(page)).toEqual({ received: 1000, last: lastEventNo });
  // Scrolled to the end: nothing below the last row.
  const gap = await timeline.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  expect(gap).toBeLessThan(2);
  // Not read from the start: the stream opened at the newest 1,000 events.
  expect(reads.stream).toEqual(['tail:1000']);
  expect(reads.pages).toEqual([]);

  // Rows are virtualised: a run of thousands of rows keeps a screenful or two in the DOM.
  expect(await timeline.getByTestId('timeline-item').count()).toBeLessThan(80);
  expect(Number(await timeline.getAttribute('data-count'))).toBeGreaterThan(300);

  // Paging back: the page before the first event held, with `after`, not from 0.
  await page.getByTestId('timeline-load-earlier').click();
  await expect.poll(() => stats(page)).toEqual({ received: 2000, last: lastEventNo });
  expect(reads.pages).toEqual([lastEventNo - 2000]);
  // The view stayed where it was (the row that was at the top is still in view) and scrolls to the top of what is held.
  await timeline.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect.poll(async () => Number(await timeline.getByTestId('timeline-item').first().getAttribute('data-event-no'))).toBeLessThan(lastEventNo - 1990);

  // Reload: the stream resumes after the last event held; nothing is read from event 0.
  reads.stream.length = 0;
  reads.pages.length = 0;
  await page.waitForTimeout(1200); // the page saves what it holds at most a second after it changes (and on pagehide)
  await page.reload();
  await expect(lastRow).toBeInViewport();
  await expect.poll(() => stats(page)).toEqual({ received: 2000, last: lastEventNo });
  expect(reads.stream).toEqual([lastEventNo]);
  expect(reads.pages).toEqual([]);
});
