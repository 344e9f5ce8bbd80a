import type { Locator } from '@playwright/test';

/** A timeline row as a scan saw it. */
export interface SeenRow {
  eventNo: number;
  seq: number;
  kind: string;
  text: string;
}

/**
 * Every row of the run page's timeline, top to bottom. The timeline is virtualised (only rows
 * near the view are in the DOM), so "is X anywhere in it" needs a scroll through it: this one
 * scrolls from the top to the end a screenful at a time (ending at the bottom, where the timeline
 * follows new events again) and collects each row once.
 */
export async function scanTimeline(timeline: Locator): Promise<SeenRow[]> {
  return timeline.evaluate(async (el) => {
    const seen = new Map<string, { eventNo: number; seq: number; kind: string; text: string }>();
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    el.scrollTop = 0;
    for (let step = 0; step < 2000; step++) {
      await frame();
      for (const row of el.querySelectorAll('[data-testid="timeline-item"]')) {
        const eventNo = row.getAttribute('data-event-no') ?? '';
        seen.set(eventNo, {
          eventNo: Number(eventNo),
          seq: Number(row.getAttribute('data-seq')),
          kind: row.getAttribute('data-kind') ?? '',
          text: row.textContent ?? '',
        });
      }
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
      el.scrollTop += Math.max(40, el.clientHeight * 0.8);
    }
    return [...seen.values()].sort((a, b) => a.eventNo - b.eventNo);
  });
}

/** Scrolls the timeline until `row` (a locator inside it) is in the DOM, and into view. */
export async function revealRow(timeline: Locator, row: Locator): Promise<void> {
  await timeline.evaluate((el) => {
    el.scrollTop = 0;
  });
  for (let step = 0; step < 2000; step++) {
    if ((await row.count()) > 0) {
      await row.first().scrollIntoViewIfNeeded();
      return;
    }
    const atEnd = await timeline.evaluate((el) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      el.scrollTop += Math.max(40, el.clientHeight * 0.8);
      return end;
    });
    if (atEnd) break;
    await timeline.page().waitForTimeout(30);
  }
  throw new Error('the row is nowhere in the timeline');
}
