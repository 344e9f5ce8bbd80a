import { unwrap } from '@looplane/client';
import { isTerminalRunStatus } from '@looplane/db/vocabulary';
import { decodeWireEvent, parseWireEvent, type ClientEvent } from '@looplane/events';
import { EXIT } from '../command';
import type { Printer } from '../printer';
import type { ApiClient, Remote } from './client';
import { approvalHint } from './approval-hint';
import { formatEvent } from './format-event';
import { SseParser } from './sse-parser';

export interface FollowOptions {
  remote: Remote;
  api: ApiClient;
  runId: string;
  /** Print each event's raw JSON (one per line) instead of readable lines. */
  json: boolean;
  printer: Printer;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
  /** Reconnect backoff bounds (default 500 ms doubling to 5 s). */
  retryMinMs?: number;
  retryMaxMs?: number;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** A message's event through the shared decoder (a type this CLI does not know comes back as unknown), or null when it is not an event. */
function eventOf(data: string): ClientEvent | null {
  try {
    return decodeWireEvent(parseWireEvent(JSON.parse(data)));
  } catch {
    return null;
  }
}

/** 0 for a run that succeeded, 1 for failed or cancelled. */
function exitCodeFor(status: string): number {
  return status === 'succeeded' ? EXIT.ok : EXIT.failure;
}

/**
 * Prints a run's events as they happen until the run is finished, and resolves to the exit code.
 * A dropped connection is resumed with `Last-Event-ID` (no event printed twice or skipped); 401
 * and 404 end it at once. "Finished" is the run's own status (read back when its main session
 * reports `run.finished`, and on idle heartbeats), since a finished run may continue after a message.
 */
export async function followRun(options: FollowOptions): Promise<number> {
  const { remote, api, runId, printer, signal } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  const retryMin = options.retryMinMs ?? 500;
  const retryMax = options.retryMaxMs ?? 5000;
  const getRun = () => unwrap(api.GET('/runs/{runId}', { params: { path: { runId } } }));
  let run = await getRun();
  let lastEventId = 0;
  let delay = retryMin;

  const finishedNow = async (): Promise<number | null> => {
    run = await getRun();
    if (!isTerminalRunStatus(run.status) || lastEventId < run.lastEventNo) return null;
    if (!options.json) printer.info(`Run ${runId} ${run.status}${run.error ? `: ${run.error}` : ''}.`);
    return exitCodeFor(run.status);
  };

  while (!signal?.aborted) {
    let response: Response;
    try {
      response = await fetchImpl(`${remote.url}/api/runs/${encodeURIComponent(runId)}/stream`, {
        headers: { authorization: `Bearer ${remote.token}`, accept: 'text/event-stream', 'last-event-id': String(lastEventId) },
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) break;
      printer.warn(`cannot reach ${remote.url} (${error instanceof Error ? error.message : String(error)}); retrying in ${delay / 1000} s`);
      await sleep(delay, signal);
      delay = Math.min(delay * 2, retryMax);
      continue;
    }
    if (response.status === 401 || response.status === 404 || response.status === 400) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      printer.error(`${response.status}: ${body?.error?.message ?? response.statusText}`);
      return EXIT.failure;
    }
    if (!response.ok || !response.body) {
      printer.warn(`the stream answered ${response.status}; retrying in ${delay / 1000} s`);
      await sleep(delay, signal);
      delay = Math.min(delay * 2, retryMax);
      continue;
    }
    delay = retryMin;
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let check = false;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          if (message.data === undefined) {
            // An idle heartbeat: the run may have ended in a way no event of ours announced.
            if (message.comment !== undefined) check = true;
            continue;
          }
          const event = eventOf(message.data);
          if (event === null) {
            printer.warn(`skipped a message that is not an event: ${message.data.slice(0, 200)}`);
            continue;
          }
          if (event.eventNo <= lastEventId) continue;
          lastEventId = event.eventNo;
          if (options.json) printer.raw(message.data);
          else {
            const line = formatEvent(event);
            if (line !== null) printer.info(line);
            if (event.type === 'approval.requested') {
              const hint = await approvalHint(api, runId, event);
              if (hint !== null) printer.info(hint);
            }
          }
          if (event.type === 'run.finished' && event.sessionId === run.mainSessionId) check = true;
        }
        // A run that was already finished ends once its backlog is printed.
        if (check || (isTerminalRunStatus(run.status) && lastEventId >= run.lastEventNo)) {
          const code = await finishedNow();
          if (code !== null) return code;
        }
      }
    } catch (error) {
      if (signal?.aborted) break;
      printer.warn(`connection lost (${error instanceof Error ? error.message : String(error)}); resuming after event #${lastEventId}`);
    } finally {
      void reader.cancel().catch(() => undefined);
    }
    await sleep(delay, signal);
  }
  return EXIT.failure;
}
