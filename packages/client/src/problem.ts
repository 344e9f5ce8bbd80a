import type { components } from './generated/schema';

/** An RFC 9457 problem (`application/problem+json`): the body of every error of the API. */
export type Problem = components['schemas']['Problem'];

/** Whether a parsed body has the problem members the API always sends. */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.type === 'string' && typeof v.title === 'string' && typeof v.status === 'number' && typeof v.detail === 'string' && typeof v.code === 'string'
  );
}

/** Enough of a body that is not a problem (a proxy's HTML page) to recognise it in a message. */
const EXCERPT_CHARS = 200;

/**
 * A call the server answered with an error status. `problem` is the server's problem details;
 * when something in between answered instead (a proxy's 502 page), it is made from the status
 * and the start of that body, so callers handle one shape. The message is the problem's
 * `detail` (the procedure's own words), else its `title`.
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';

  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title);
  }

  /** The error of a response and its body (as openapi-fetch parsed it: JSON, else text). */
  static of(response: Response, body: unknown): ProblemError {
    if (isProblem(body)) return new ProblemError(response.status, body);
    const title = response.statusText || `HTTP ${response.status}`;
    const text = typeof body === 'string' ? body.trim().slice(0, EXCERPT_CHARS) : '';
    return new ProblemError(response.status, { type: 'about:blank', title, status: response.status, detail: text || title, code: `HTTP_${response.status}` });
  }
}

/** The server could not be reached at all (refused, reset, DNS): no HTTP status to speak of. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';

  constructor(
    /** The origin that was tried. */
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(`cannot reach ${url}: ${ConnectionError.reason(cause)}`);
  }

  /** Node's fetch says "fetch failed" and keeps the reason (ECONNREFUSED …) in its cause. */
  private static reason(cause: unknown): string {
    if (!(cause instanceof Error)) return String(cause);
    return cause.cause instanceof Error ? cause.cause.message : cause.message;
  }
}
