const encoder = new TextEncoder();

/** Headers of every event stream: unbuffered, uncached, not transformed by proxies. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-store, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** One SSE message. `data` is JSON on one line (JSON.stringify escapes newlines). */
export function sseFrame(data: unknown, options: { id?: number; event?: string } = {}): string {
  const id = options.id === undefined ? '' : `id: ${options.id}\n`;
  const event = options.event === undefined ? '' : `event: ${options.event}\n`;
  return `${id}${event}data: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies and idle timeouts from closing the stream. */
export const HEARTBEAT = ': keep-alive\n\n';

/** UTF-8 bytes of a piece of the stream. */
export function encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A JSON error for the plain (non-tRPC) routes: `{ error: { message } }`. */
export function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: { message } }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/**
 * A level-triggered wake-up: `notify()` before `wait()` is not lost. `wait(ms)` resolves true when
 * notified, false on timeout.
 */
export class Wakeup {
  private pending = false;
  private release: (() => void) | null = null;

  notify(): void {
    this.pending = true;
    this.release?.();
  }

  wait(ms: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.release = null;
        resolve(false);
      }, ms);
      this.release = () => {
        clearTimeout(timer);
        this.release = null;
        this.pending = false;
        resolve(true);
      };
    });
  }
}
