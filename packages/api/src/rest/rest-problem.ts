import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { z } from 'zod';
import { describeZodError, toTrpcError } from '../errors';
import { retryAfterOf } from '../services/run-start-limits';
import type { Problem } from './schemas/common.schemas';

/** Where in the request a failed check was. */
export type RequestPart = 'path' | 'query' | 'body' | 'header';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** A refusal of the REST layer itself (routing, authentication, parsing, idempotency), before or around a procedure. */
export class RestProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: { errors?: Problem['errors']; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

/** The problem body: `type` is `about:blank`, so `title` is the status phrase (RFC 9457 §4.2.1). */
function problem(status: number, code: string, detail: string, errors?: Problem['errors']): Problem {
  return { type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail, code, ...(errors ? { errors } : {}) };
}

/** An `application/problem+json` response. */
function problemResponse(status: number, code: string, detail: string, extra: RestProblem['extra'] = {}): Response {
  return new Response(JSON.stringify(problem(status, code, detail, extra.errors)), {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...extra.headers },
  });
}

/** Each failed check of a zod error, located in `part`; unknown keys are named one by one. */
function issuesOf(error: z.ZodError, part: RequestPart): NonNullable<Problem['errors']> {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      const what = part === 'query' ? 'query parameter' : part === 'path' ? 'path parameter' : 'field';
      return issue.keys.map((key) => ({ in: part, path: [...path, key].join('.'), message: `unknown ${what}` }));
    }
    return [{ in: part, path: path.join('.'), message: issue.message }];
  });
}

/**
 * A request part that failed its schema: 422 for a body that is JSON but not the right JSON,
 * 400 for a bad path, query or header. The detail is the line tRPC gives for the same failure.
 */
export function validationProblem(error: z.ZodError, part: RequestPart): RestProblem {
  const status = part === 'body' ? 422 : 400;
  return new RestProblem(status, status === 422 ? 'UNPROCESSABLE_CONTENT' : 'BAD_REQUEST', describeZodError(error), { errors: issuesOf(error, part) });
}

/**
 * Any error of a request as a problem response. Procedure errors keep their code and message
 * and get the HTTP status tRPC gives them (`getHTTPStatusCodeFromError`); a refusal with a
 * `retryAfterSeconds` (the run-start limits) says it in `Retry-After`. 5xx details stay in the
 * logs (`onInternal`). `inputPart` locates a validation failure the procedure itself found.
 */
export function errorResponse(error: unknown, inputPart: RequestPart, onInternal?: (error: unknown) => void): Response {
  if (error instanceof RestProblem) return problemResponse(error.status, error.code, error.detail, error.extra);
  // Domain errors thrown by the REST layer's own lookups map exactly as inside a procedure.
  const trpc = toTrpcError(error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error }));
  if (trpc.cause instanceof z.ZodError) {
    const invalid = validationProblem(trpc.cause, inputPart);
    return problemResponse(invalid.status, invalid.code, invalid.detail, invalid.extra);
  }
  if (trpc.code === 'INTERNAL_SERVER_ERROR') {
    onInternal?.(error);
    return problemResponse(500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
  }
  const seconds = retryAfterOf(trpc);
  return problemResponse(getHTTPStatusCodeFromError(trpc), trpc.code, trpc.message, seconds !== null ? { headers: { 'retry-after': String(seconds) } } : {});
}
