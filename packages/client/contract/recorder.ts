import { API_BASE_PATH } from '../src/index';

/** One request the client sent and what came back, as the server sent it. */
export interface Exchange {
  method: string;
  /** Below `/api/v1`. */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
}

/**
 * A fetch for the generated client that keeps a copy of every exchange, so the test can check
 * what the server really sent (not what the client made of it) and see which operations ran.
 */
export function recordingFetch(exchanges: Exchange[]) {
  return async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text, which no documented schema accepts.
    }
    const { pathname } = new URL(request.url);
    exchanges.push({
      method: request.method,
      path: pathname.startsWith(API_BASE_PATH) ? pathname.slice(API_BASE_PATH.length) : pathname,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body,
    });
    return response;
  };
}
