import type { z } from 'zod';
import { REST_BASE, queryString } from '../rest/rest-links';
import type { RestRoute } from '../rest/rest-route';
import { restRoutes } from '../rest/routes';
import { problemSchema, type Problem } from '../rest/schemas/common.schemas';

/** One REST reply: status, headers and the parsed JSON body (or the text, when it is not JSON: a download). */
export interface RestReply {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface RestRequest {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}

function routeOf(operationId: string): RestRoute {
  const route = restRoutes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no REST operation ${operationId}`);
  return route;
}

/** The URL path of an operation with its path parameters filled in. */
export function operationPath(operationId: string, params: Record<string, string> = {}): string {
  return (
    REST_BASE +
    routeOf(operationId).path.replace(/\{([A-Za-z0-9]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`${operationId}: give the path parameter ${name}`);
      return encodeURIComponent(value);
    })
  );
}

/**
 * A REST client for tests, over real HTTP with a team API token (or none). `ok` calls an
 * operation by its operationId and insists on the route's success status and a body its
 * declared response schema accepts (strict objects: an extra or missing field fails).
 */
export function restClient(baseUrl: string, token: string | null) {
  const send = async (
    method: string,
    path: string,
    init: { body?: unknown; rawBody?: string | Uint8Array<ArrayBuffer> | FormData; headers?: Record<string, string> } = {},
  ): Promise<RestReply> => {
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers };
    let body: string | Uint8Array<ArrayBuffer> | FormData | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      // An empty file (a download) stays text; an empty JSON body reads as null.
      parsed = text === '' ? (response.headers.get('content-type')?.startsWith('text/') ? '' : null) : JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the assertion to show.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };

  const call = (operationId: string, request: RestRequest = {}): Promise<RestReply> => {
    const route = routeOf(operationId);
    const search = request.query ? queryString(request.query) : '';
    // A file route's body (bytes or a form) goes as it is; anything else as JSON.
    const raw = request.body instanceof Uint8Array || request.body instanceof FormData;
    return send(route.method, operationPath(operationId, request.params) + (search ? `?${search}` : ''), {
      ...(request.body !== undefined ? (raw ? { rawBody: request.body as Uint8Array<ArrayBuffer> | FormData } : { body: request.body }) : {}),
      ...(request.headers ? { headers: request.headers } : {}),
    });
  };

  return {
    send,
    call,
    /** Calls `operationId` and returns its body, checked against `schema` (which must be the route's response schema). */
    async ok<S extends z.ZodType>(operationId: string, schema: S, request: RestRequest = {}): Promise<z.output<S>> {
      const route = routeOf(operationId);
      if (route.response !== schema) throw new Error(`${operationId}: that is not the route's response schema`);
      const reply = await call(operationId, request);
      if (reply.status !== route.status) throw new Error(`${operationId}: expected ${route.status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
      if (reply.headers.get('content-type') !== 'application/json') throw new Error(`${operationId}: content-type ${reply.headers.get('content-type')}`);
      const parsed = schema.safeParse(reply.body);
      if (!parsed.success) throw new Error(`${operationId}: the body does not match its schema: ${parsed.error.message}\n${JSON.stringify(reply.body)}`);
      return parsed.data;
    },
  };
}

export type RestClient = ReturnType<typeof restClient>;

/** The reply's problem, checked: `application/problem+json`, the RFC 9457 members, `status` and (if given) `code`. */
export function problemOf(reply: RestReply, status: number, code?: string): Problem {
  if (reply.headers.get('content-type') !== 'application/problem+json')
    throw new Error(`expected problem+json, got ${reply.headers.get('content-type')}: ${JSON.stringify(reply.body)}`);
  const problem = problemSchema.parse(reply.body);
  if (reply.status !== status || problem.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${JSON.stringify(problem)}`);
  if (code !== undefined && problem.code !== code) throw new Error(`expected code ${code}, got ${problem.code}: ${problem.detail}`);
  return problem;
}
