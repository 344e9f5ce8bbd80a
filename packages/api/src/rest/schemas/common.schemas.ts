import { z } from 'zod';

/** Every date of a REST body: ISO-8601 in UTC, with milliseconds (what `Date#toJSON` writes). */
export const timestamp = z.iso.datetime().meta({ id: 'Timestamp', description: 'ISO-8601 date-time in UTC, e.g. 2026-12-02T07:00:00.000Z' });

/** An id of the API's records (a cuid). */
export const id = z.string().min(1).max(64);

/**
 * Counters that are BigInt in the database (tokens, micro-dollars, event numbers) are JSON numbers:
 * their bounds (runs.schema.ts) keep them well inside the 2^53 a JSON number holds exactly.
 */
export const bigCount = z.int().min(0).meta({ description: 'A BigInt counter, as a JSON number (always below 2^53)' });

export const roleEnum = z.enum(['viewer', 'operator', 'approver', 'admin']).meta({ id: 'Role' });

/** A person named in a response. */
export const userRef = z.strictObject({ id, email: z.string(), name: z.string().nullable() }).meta({ id: 'UserRef' });

/** One failed check of a request, named by where it was and its path inside it. */
const problemIssue = z
  .strictObject({
    in: z.enum(['path', 'query', 'body', 'header']),
    /** Dotted path inside that part (`budget.tokens`), empty for the part as a whole. */
    path: z.string(),
    message: z.string(),
  })
  .meta({ id: 'ProblemIssue' });

/**
 * RFC 9457 problem details (`application/problem+json`), the body of every error. `type` is
 * `about:blank`, so `title` is the HTTP status phrase; `code` says which error it is (tRPC's codes
 * plus the REST API's own), `detail` says exactly what was wrong, in the procedures' own words.
 */
export const problemSchema = z
  .strictObject({
    type: z.string(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.string(),
    /** Validation failures: each check that failed. */
    errors: z.array(problemIssue).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problemSchema>;

/** A whole number in a query string (`?limit=20`). */
export function intQuery(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max);
}
