/**
 * Polls `GET <baseUrl>/api/health` until it answers 200. Rejects after `timeoutMs` with the last
 * status seen, or as soon as `signal` aborts (a child died, Ctrl-C).
 */
export async function waitForHealth(baseUrl: string, options: { timeoutMs: number; signal: AbortSignal }): Promise<void> {
  const url = `${baseUrl}/api/health`;
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no answer';
  for (;;) {
    options.signal.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.any([options.signal, AbortSignal.timeout(3000)]) });
      const body = await response.text();
      if (response.status === 200) return;
      last = `HTTP ${response.status} ${body.slice(0, 200)}`;
    } catch (error) {
      options.signal.throwIfAborted();
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`the dashboard did not become healthy within ${options.timeoutMs / 1000} s (${url}: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
