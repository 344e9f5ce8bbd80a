/**
 * A UTC `timestamp` (the type of Prisma's `DateTime` columns) from epoch milliseconds: times travel
 * as numbers, so the session's time zone never shifts them (a Date bound through Prisma's raw
 * queries arrives without one). Exact (integer arithmetic), so a time compares equal to the one
 * stored from the same milliseconds.
 */
export const utcFromMsExpr = (expr: string) => `('epoch'::timestamp + ${expr} * interval '1 millisecond')`;

/** {@link utcFromMsExpr} of the parameter `:name`. */
export const utcFromMs = (name: string) => utcFromMsExpr(`:${name}`);
