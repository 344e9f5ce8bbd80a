import type { z } from 'zod';
import type { Role } from '@looplane/shared';
import { appRouter } from '../root';
import type { ReceivedFile } from './rest-file-body';
import { createCallerFactory, type Meta } from '../trpc';

const createCaller = createCallerFactory(appRouter);
/** The tRPC caller of the request's token: every route runs the procedures, never a copy of them. */
export type RestCaller = ReturnType<typeof createCaller>;
export { createCaller as createRestCaller };

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Tags group the operations in the document (and in a generated client). */
export const REST_TAGS = {
  me: 'Who the token is',
  runs: 'Runs: start, watch, steer, stop',
  approvals: 'Tool calls held for a person',
  agents: 'Agent templates',
  graphs: 'Swarm graphs',
  sessions: 'Branches of a run: fork, resume, files',
  audit: 'The tamper-evident audit log',
  tokens: 'Team API tokens',
  mcpServers: 'MCP servers the team’s agents may use',
  uploads: 'Archives that seed a run’s workspace',
  skills: 'The team’s skill library',
  schedules: 'Runs on a cron or an interval',
  triggers: 'Inbound triggers: signed URLs that start runs or message them',
} as const;
type RestTag = keyof typeof REST_TAGS;

/** Statuses a route may answer with a problem besides the ones every route has (400, 401, 403). */
type ProblemStatus = 404 | 409 | 412 | 413 | 415 | 422 | 429;

/** What a route's handler gets: the token's caller and team, and the parsed request. */
interface RouteInput<P, Q, B> {
  caller: RestCaller;
  teamId: string;
  params: P;
  query: Q;
  body: B;
  /** The file of a route that takes one ({@link RouteDefinition.file}); null for every other route. */
  file: ReceivedFile | null;
}

/**
 * What a handler may return for a response schema's type: the same shape, where any text may
 * still be a Date and any number a bigint (JSON serialisation turns them into ISO text and
 * numbers). A procedure whose output drifts from its documented schema fails to compile.
 */
type Serialisable<T> = T extends string
  ? T | Date
  : T extends number
    ? T | bigint
    : T extends readonly (infer U)[]
      ? readonly Serialisable<U>[]
      : T extends object
        ? { [K in keyof T]: Serialisable<T[K]> }
        : T;

type AnyObject = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
type In<S> = S extends z.ZodType ? z.input<S> : never;

/** A route as it is written in a `*.routes.ts` file (typed end to end). */
export interface RouteDefinition<P extends AnyObject | undefined, Q extends AnyObject | undefined, B extends z.ZodType | undefined, R extends z.ZodType> {
  method: HttpMethod;
  /** Below `/api/v1`, with `{name}` path parameters, e.g. `/runs/{runId}/cancel`. */
  path: string;
  /** camelCase and stable: a generated client names its functions after it. */
  operationId: string;
  summary: string;
  description?: string;
  tag: RestTag;
  /** The tRPC procedure the route runs (`runs.create`); the route requires that procedure's role. */
  procedure: string;
  params?: P;
  query?: Q;
  /** The JSON body; strict, so unknown fields are refused. */
  body?: B;
  /**
   * The body is one file rather than JSON: `multipart/form-data` with one field `file`, or the raw
   * bytes (an archive's media type or `application/octet-stream`), bounded by the upload limit.
   */
  file?: true;
  /**
   * The success body is a file of this media type rather than JSON (the handler returns its text),
   * sent as an attachment named by `filename`.
   */
  download?: { mediaType: string; filename(params: Out<P>): string };
  /** The body after JSON serialisation: what the document promises and the tests check. */
  response: R;
  /** The success status (default 200). */
  status?: 200 | 201;
  responseDescription: string;
  /** Problem statuses this route can answer with beyond 400, 401, 403 (and 500). */
  problems?: readonly ProblemStatus[];
  /** Honours `Idempotency-Key` (rest-idempotency.ts). */
  idempotent?: boolean;
  /** A valid request, for the document and for tests that walk every route (ids are placeholders). */
  example: { params?: In<P>; query?: In<Q>; body?: In<B> };
  handle(input: RouteInput<Out<P>, Out<Q>, Out<B>>): Promise<Serialisable<z.input<R>>>;
  /** Headers derived from the response body (`Location`, `Link`); also sent on an idempotent replay. */
  headers?(body: z.output<R>, request: { params: Out<P>; query: Out<Q> }): Record<string, string>;
}

/** A route of the table, its types erased (what the HTTP handler, the document and tests iterate). */
export interface RestRoute {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tag: RestTag;
  readonly procedure: string;
  /** The least role that may call it: the tRPC procedure's, read from the router. */
  readonly role: Role;
  readonly params: AnyObject | null;
  readonly query: AnyObject | null;
  readonly body: z.ZodType | null;
  /** Whether the body is a file (`RouteDefinition.file`). */
  readonly file: boolean;
  /** The success body's media type and file name, for a route that sends a file (`RouteDefinition.download`). */
  readonly download: { readonly mediaType: string; filename(params: unknown): string } | null;
  readonly response: z.ZodType;
  readonly status: 200 | 201;
  readonly responseDescription: string;
  readonly problems: readonly ProblemStatus[];
  readonly idempotent: boolean;
  readonly example: { params?: unknown; query?: unknown; body?: unknown };
  handle(input: RouteInput<unknown, unknown, unknown>): Promise<unknown>;
  headers(body: unknown, request: { params: unknown; query: unknown }): Record<string, string>;
}

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } } | undefined>;

/** The role a team procedure requires; a route over anything else is a programming error. */
function roleOf(procedure: string): Role {
  const access = procedures[procedure]?._def.meta?.access;
  if (!access) throw new Error(`REST route over unknown procedure ${procedure}`);
  // `me` is authed, not team-scoped: any valid token may call it.
  return access.kind === 'team' ? access.role : 'viewer';
}

/**
 * Declares a route. The handler's result must type-check against the response schema
 * ({@link Serialisable}); the integration tests check the real bodies against it too.
 */
export function defineRoute<P extends AnyObject | undefined, Q extends AnyObject | undefined, B extends z.ZodType | undefined, R extends z.ZodType>(
  definition: RouteDefinition<P, Q, B, R>,
): RestRoute {
  const { handle, headers } = definition;
  return {
    method: definition.method,
    path: definition.path,
    operationId: definition.operationId,
    summary: definition.summary,
    description: definition.description,
    tag: definition.tag,
    procedure: definition.procedure,
    role: roleOf(definition.procedure),
    params: definition.params ?? null,
    query: definition.query ?? null,
    body: definition.body ?? null,
    file: definition.file ?? false,
    download: definition.download ? { mediaType: definition.download.mediaType, filename: (params) => definition.download!.filename(params as Out<P>) } : null,
    response: definition.response,
    status: definition.status ?? 200,
    responseDescription: definition.responseDescription,
    problems: definition.problems ?? [],
    idempotent: definition.idempotent ?? false,
    example: definition.example,
    // The inputs were parsed by these very schemas before a handler runs.
    handle: (input) => handle(input as RouteInput<Out<P>, Out<Q>, Out<B>>),
    headers: (body, request) => headers?.(body as z.output<R>, request as { params: Out<P>; query: Out<Q> }) ?? {},
  };
}
