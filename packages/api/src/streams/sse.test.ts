import { describe, expect, it } from 'vitest';
import { sseFrame, Wakeup } from './sse';

describe('sseFrame', () => {
  it('writes id, event and one-line JSON data', () => {
    expect(sseFrame({ text: 'two\nlines' }, { id: 7 })).toBe('id: 7\ndata: {"text":"two\\nlines"}\n\n');
    expect(sseFrame({ kind: 'ready' }, { event: 'hello' })).toBe('event: hello\ndata: {"kind":"ready"}\n\n');
  });
});

describe('Wakeup', () => {
  it('keeps a notify that came before the wait', async () => {
    const wakeup = new Wakeup();
    wakeup.notify();
    expect(await wakeup.wait(1000)).toBe(true);
    expect(await wakeup.wait(10)).toBe(false);
  });

  it('wakes a waiter, and times out without a notify', async () => {
    const wakeup = new Wakeup();
    const waiting = wakeup.wait(1000);
    wakeup.notify();
    expect(await waiting).toBe(true);
    const started = Date.now();
    expect(await wakeup.wait(30)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});
