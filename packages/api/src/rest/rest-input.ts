import { z } from 'zod';
import { MAX_BODY_BYTES, readBounded } from '../http';
import { UNSTORABLE_TEXT, unstorableTextPath } from '../storable-text';
import { RestProblem, validationProblem, type RequestPart } from './rest-problem';
import type { RestRoute } from './rest-route';

/** A route without a body schema takes none: an empty body or `{}`. */
const NO_BODY = z.strictObject({});
const NO_QUERY = z.strictObject({});

/** Whether a query field takes several values (`?status=a&status=b`): an array under optional/default wrappers. */
function takesMany(schema: z.core.$ZodType | undefined): boolean {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) current = current.unwrap();
  return current instanceof z.ZodArray;
}

/**
 * Text the database cannot store (NUL, unpaired surrogates) is refused before any schema, as
 * tRPC's middleware refuses it, with its message: here located in the request part, with the
 * part's status (422 in a body, 400 elsewhere), where from inside a procedure it had neither.
 */
function refuseUnstorable(raw: unknown, part: RequestPart): void {
  const path = unstorableTextPath(raw);
  if (!path) return;
  const field = path.join('.');
  const status = part === 'body' ? 422 : 400;
  throw new RestProblem(status, status === 422 ? 'UNPROCESSABLE_CONTENT' : 'BAD_REQUEST', `Invalid input: ${field || 'input'}: ${UNSTORABLE_TEXT}`, {
    errors: [{ in: part, path: field, message: UNSTORABLE_TEXT }],
  });
}

/** Path parameters, each decoded and checked by the route's schema (400 naming the bad one). */
export function parseParams(route: RestRoute, raw: Record<string, string>): unknown {
  if (!route.params) return {};
  refuseUnstorable(raw, 'path');
  const parsed = route.params.safeParse(raw);
  if (!parsed.success) throw validationProblem(parsed.error, 'path');
  return parsed.data;
}

/**
 * The query string against the route's strict schema: a parameter the route does not know is
 * refused (400), array parameters repeat their key, any other key given twice is refused.
 */
export function parseQuery(route: RestRoute, search: URLSearchParams): unknown {
  const schema = route.query ?? NO_QUERY;
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (takesMany((schema.shape as Record<string, z.core.$ZodType | undefined>)[key])) raw[key] = values;
    else if (values.length > 1)
      throw new RestProblem(400, 'BAD_REQUEST', `Invalid input: ${key}: give it once`, {
        errors: [{ in: 'query', path: key, message: 'given more than once' }],
      });
    else raw[key] = values[0]!;
  }
  refuseUnstorable(raw, 'query');
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationProblem(parsed.error, 'query');
  return parsed.data;
}

/** What JSON the request carried: nothing for an empty body. */
async function readJson(request: Request): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'DELETE') {
    // A body on a read or a delete would be ignored by every client library; say so instead.
    const declared = request.headers.get('content-length');
    if (declared !== null && declared !== '0') throw new RestProblem(400, 'BAD_REQUEST', `${request.method} takes no request body`);
    return undefined;
  }
  const bytes = await readBounded(request, MAX_BODY_BYTES);
  if (bytes === null) throw new RestProblem(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes`);
  if (bytes.byteLength === 0) return undefined;
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new RestProblem(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json (got ${type || 'no content type'})`);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch (error) {
    throw new RestProblem(400, 'BAD_REQUEST', `The body is not valid JSON: ${error instanceof Error ? error.message : 'unreadable'}`);
  }
}

export interface ParsedBody {
  /** The JSON as sent (what an idempotency key's hash covers). */
  raw: unknown;
  /** After the route's strict schema (defaults applied). */
  value: unknown;
}

/** The JSON body against the route's strict schema: 400 for bad JSON, 422 for the wrong JSON. */
export async function parseBody(route: RestRoute, request: Request): Promise<ParsedBody> {
  const sent = await readJson(request);
  // An absent body is the empty object: a route whose fields are all optional needs none. A
  // JSON `null` is a body, and not an object.
  const raw = sent === undefined ? {} : sent;
  refuseUnstorable(raw, 'body');
  const parsed = (route.body ?? NO_BODY).safeParse(raw);
  if (!parsed.success) throw validationProblem(parsed.error, 'body');
  return { raw, value: parsed.data };
}
