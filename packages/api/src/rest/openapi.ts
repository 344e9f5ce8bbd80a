import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathItemObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiRequestBodyObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { MAX_BODY_BYTES } from '../http';
import { IDEMPOTENCY_TTL_MS, MAX_IDEMPOTENCY_KEY_CHARS } from './rest-idempotency';
import { REST_BASE } from './rest-links';
import { REST_TAGS, type RestRoute } from './rest-route';
import { restRoutes } from './routes';
import { problemSchema } from './schemas/common.schemas';

/** The OpenAPI 3.1 document of `/api/v1`, as served at `/api/openapi.json`. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

const PROBLEM_TEXT: Record<number, string> = {
  400: 'Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each)',
  401: 'No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count)',
  403: 'The token’s role is too low for this, or its creator is no longer in the team',
  404: 'No such resource in the token’s team',
  409: 'A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress',
  412: 'Not possible in the resource’s current state (`detail` says why)',
  413: `The body is larger than ${MAX_BODY_BYTES} bytes`,
  415: 'The body is not `application/json`',
  422: 'The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body',
  429: 'The team started too much work; `Retry-After` says how many seconds to wait',
};

const retryAfter = z.object({ 'retry-after': z.string().meta({ description: 'Seconds to wait before trying again' }) });

/** What 413 and 415 mean for a route whose body is a file rather than JSON. */
const FILE_PROBLEM_TEXT: Record<number, string> = {
  413: 'The file is larger than the server’s upload limit (LOOPLANE_UPLOAD_MAX_MB, default 100 MB)',
  415: 'The body is neither `multipart/form-data` nor an archive’s bytes (`application/gzip`, `application/x-tar`, `application/zip`, `application/octet-stream`)',
};

function problemResponses(statuses: number[], texts: Record<number, string> = {}): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const status of [...new Set(statuses)].sort()) {
    responses[`${status}` as `${4 | 5}${string}`] = {
      description: texts[status] ?? PROBLEM_TEXT[status] ?? 'An error',
      ...(status === 429 ? { headers: retryAfter } : {}),
      content: { 'application/problem+json': { schema: problemSchema } },
    };
  }
  return responses;
}

/** Which headers a success carries besides the body, by what the route sends. */
function successHeaders(route: RestRoute) {
  const headers: Record<string, z.ZodType> = {};
  if (route.status === 201 && route.idempotent) headers.location = z.string().meta({ description: 'The created run’s URL' });
  if (route.operationId === 'listRunEvents') {
    headers.link = z.string().meta({ description: '`rel="stream"`: the live SSE stream after this page; `rel="next"`: the next page, while there is one' });
  } else if (route.query?.shape.cursor) {
    headers.link = z.string().optional().meta({ description: '`rel="next"`: the next page, when there is one' });
  }
  if (route.download) headers['content-disposition'] = z.string().meta({ description: '`attachment; filename="…"`: the file’s name' });
  if (route.idempotent)
    headers['idempotent-replayed'] = z.literal('true').optional().meta({ description: 'This is the stored response of an earlier request with the same key' });
  return Object.keys(headers).length > 0 ? { headers: z.object(headers) } : {};
}

const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(MAX_IDEMPOTENCY_KEY_CHARS)
    .optional()
    .meta({
      description:
        `Makes a retry safe: the same key with the same body within ${IDEMPOTENCY_TTL_MS / 3_600_000} hours returns the first response ` +
        '(`Idempotent-Replayed: true`) and starts nothing; the same key with another body is 422; while the first is in progress, 409. ' +
        'Keys are per token. A request that failed does not keep its key.',
    }),
});

/** A file, as the raw body or as the `file` field of a form. */
const FILE_SCHEMA = { type: 'string' as const, contentMediaType: 'application/octet-stream' };

/** The request body of a file route: a form with one field `file`, or the file's bytes. */
function fileRequestBody(): ZodOpenApiRequestBodyObject {
  const raw = { schema: FILE_SCHEMA };
  return {
    required: true,
    description:
      'The archive (.tar, .tar.gz/.tgz or .zip; told apart by its bytes): as `multipart/form-data` with one field `file`, or as the raw bytes, ' +
      'named by `?filename=` or `Content-Disposition: attachment; filename=…`.',
    content: {
      'multipart/form-data': { schema: { type: 'object', properties: { file: FILE_SCHEMA }, required: ['file'] } },
      'application/gzip': raw,
      'application/x-tar': raw,
      'application/zip': raw,
      'application/octet-stream': raw,
    },
  };
}

function operationOf(route: RestRoute): ZodOpenApiOperationObject {
  const problems = [400, 401, 403, ...route.problems];
  if (route.body) problems.push(413, 415, 422);
  if (route.file) problems.push(413, 415);
  if (route.idempotent) problems.push(409, 422);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description ?? route.summary}\n\nRequires the **${route.role}** role (tRPC \`${route.procedure}\`).`,
    tags: [route.tag],
    security: [{ bearerAuth: [] }],
    'x-looplane-role': route.role,
    'x-looplane-procedure': route.procedure,
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.idempotent ? { header: idempotencyHeader } : {}),
    },
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: route.body, ...(route.example.body !== undefined ? { example: route.example.body } : {}) } },
          },
        }
      : {}),
    ...(route.file ? { requestBody: fileRequestBody() } : {}),
    responses: {
      [`${route.status}`]: {
        description: route.responseDescription,
        ...successHeaders(route),
        // A media type's parameters (`; charset=utf-8`) are not part of the content map's key.
        content: { [route.download?.mediaType.split(';')[0] ?? 'application/json']: { schema: route.response } },
      },
      ...problemResponses(problems, route.file ? FILE_PROBLEM_TEXT : {}),
    },
  };
}

const refTo = (name: string) => `#/components/schemas/${name}`;

/** How the generator writes `z.json()`, its references to itself written `SELF`. */
const JSON_VALUE_SHAPE = JSON.stringify({
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'null' },
    { type: 'array', items: { $ref: 'SELF' } },
    { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { $ref: 'SELF' } },
  ],
});

/**
 * `z.json()` (free-form JSON: tool parameters, edited arguments) is recursive, so the generator
 * gives each use an anonymous component (`__schema0`, …). They are all the same schema: one
 * component named `JsonValue` takes their place, so a generated client gets one readable type.
 */
function nameJsonValueSchemas(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas ?? {};
  const selfRef = (name: string) => JSON.stringify(refTo(name));
  const renamed = Object.keys(schemas).filter(
    (name) => /^__schema\d+$/.test(name) && JSON.stringify(schemas[name]).split(selfRef(name)).join('"SELF"') === JSON_VALUE_SHAPE,
  );
  if (renamed.length === 0) return document;
  let text = JSON.stringify(document);
  for (const name of renamed) text = text.split(selfRef(name)).join(selfRef('JsonValue'));
  const result = JSON.parse(text) as OpenApiDocument;
  const resultSchemas = result.components?.schemas ?? {};
  resultSchemas.JsonValue = resultSchemas[renamed[0]!]!;
  for (const name of renamed) delete resultSchemas[name];
  return result;
}

/** `/runs/{runId}` for the table's `/runs/{runId}` (OpenAPI and the table write parameters alike). */
function pathsOf(routes: readonly RestRoute[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item: ZodOpenApiPathItemObject = paths[route.path] ?? {};
    paths[route.path] = item;
    item[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'] = operationOf(route);
  }
  return paths;
}

export interface OpenApiOptions {
  /** The API's version (the web app's package version). */
  version?: string;
}

/**
 * The OpenAPI 3.1 document of the REST API, generated from the route table and its zod schemas
 * (nothing is kept by hand): every operation with its parameters, body, response, problem
 * responses, required role (`x-looplane-role`) and the bearer scheme. Pure: no server needed.
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Looplane REST API',
      version: options.version ?? '0.1.0',
      description:
        'The control plane of long-running agent runs, over HTTP and JSON. Authenticate with a team API token ' +
        '(`Authorization: Bearer llp_…`); the team is the token’s. Dates are ISO-8601 UTC; BigInt counters are JSON numbers. ' +
        'Errors are RFC 9457 problem details (`application/problem+json`).',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: REST_BASE, description: 'This Looplane server' }],
    tags: Object.entries(REST_TAGS).map(([name, description]) => ({ name, description })),
    security: [{ bearerAuth: [] }],
    paths: pathsOf(restRoutes),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A team API token (`llp_…`), made in Settings → API tokens or with `looplane token create`',
        },
      },
    },
  });
  return nameJsonValueSchemas(document);
}
