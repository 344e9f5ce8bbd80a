import { encode, HEARTBEAT, Wakeup } from './sse';

/** What one kind of live stream sends; {@link liveStream} does the subscription, waiting, heartbeats and shutdown. */
export interface LiveSource {
  /** Subscribes to the wake-ups of this stream (call `wake` on each); resolves to the unsubscribe. */
  subscribe(wake: () => void): Promise<() => Promise<void>>;
  /** The first bytes, sent once the subscription is in place (so nothing between is lost). */
  opening(): Promise<string>;
  /**
   * What to send now, or null when nothing is due. `timedOut`: the last wait ended without a
   * wake-up (a source that polls re-reads then). A throw ends the stream (the client reconnects).
   */
  next(timedOut: boolean): Promise<string | null>;
}

export interface LiveStreamOptions {
  /** A comment line after this much silence. */
  heartbeatMs: number;
  /** Call `next(true)` after this long without a wake-up (default: only when a heartbeat is due). */
  pollMs?: number;
  signal?: AbortSignal | undefined;
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * An SSE body fed by a {@link LiveSource}: pull-based (nothing is produced while the client is not
 * reading), a heartbeat after `heartbeatMs` of silence, and the subscription dropped on cancel,
 * abort or a failing source.
 */
export function liveStream(source: LiveSource, options: LiveStreamOptions): ReadableStream<Uint8Array> {
  const { heartbeatMs } = options;
  const wakeup = new Wakeup();
  let closed = false;
  let timedOut = false;
  let lastWrite = Date.now();
  let unsubscribe: (() => Promise<void>) | null = null;

  const cleanup = async () => {
    if (closed) return;
    closed = true;
    wakeup.notify();
    await unsubscribe?.().catch((error: unknown) => options.onError?.(error));
  };

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const onAbort = () => {
        void cleanup();
        try {
          controller.close();
        } catch {
          // already closed or errored
        }
      };
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      unsubscribe = await source.subscribe(() => wakeup.notify());
      if (closed) return void (await unsubscribe());
      controller.enqueue(encode(await source.opening()));
      lastWrite = Date.now();
    },
    async pull(controller) {
      try {
        while (!closed) {
          const chunk = await source.next(timedOut);
          timedOut = false;
          if (closed) return;
          if (chunk) {
            controller.enqueue(encode(chunk));
            lastWrite = Date.now();
            return;
          }
          const idle = Date.now() - lastWrite;
          if (idle >= heartbeatMs) {
            controller.enqueue(encode(HEARTBEAT));
            lastWrite = Date.now();
            return;
          }
          timedOut = !(await wakeup.wait(Math.min(options.pollMs ?? heartbeatMs, heartbeatMs - idle)));
        }
      } catch (error) {
        // A source gone mid-stream (Postgres down): end it; the client reconnects and resumes.
        options.onError?.(error);
        await cleanup();
        controller.close();
      }
    },
    cancel: cleanup,
  });
}
