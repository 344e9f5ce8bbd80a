/**
 * The webhook tables' timestamps are UTC `timestamp(3)` columns (as Prisma writes them), so every
 * "now" in their statements is the UTC wall time, and a timestamp read back as text is ISO UTC.
 */
export const UTC_NOW = `timezone('UTC', now())`;

/** A `timestamp(3)` column (UTC wall time) as ISO 8601 text with milliseconds and `Z`. */
export const isoUtc = (column: string): string => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
