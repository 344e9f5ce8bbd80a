import { scanStoredJson } from '@looplane/db/system';
import pg from 'pg';
import { escapeReservedKey, wireTransformer } from '@looplane/shared/wire';

/** A quick text filter before the exact check: a reserved name (escaped or not) written as a key. */
const CANDIDATE = '"~*(__proto__|constructor|prototype)"\\s*:';

/** A stored value that does not come back from the wire as it was stored (an empty list: all do). */
interface UnreadableRow {
  table: string;
  column: string;
  id: string;
  reason: string;
}

export interface ReservedKeysReport {
  /** Rows holding at least one key superjson refuses (`__proto__`, `constructor`, `prototype`), per `Table.column`. */
  rowsWithReservedKeys: Record<string, number>;
  unreadable: UnreadableRow[];
}

function hasReservedKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasReservedKey);
  return Object.keys(value).some((key) => escapeReservedKey(key) !== key || hasReservedKey((value as Record<string, unknown>)[key]));
}

/** JSON with keys sorted at every depth, own `__proto__` keys included (Object.fromEntries defines them). */
function canonical(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    v === null || typeof v !== 'object'
      ? v
      : Array.isArray(v)
        ? v.map(sorted)
        : Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          );
  return JSON.stringify(sorted(value));
}

/** Why `value` would not reach a client as stored, or null when it does. */
function wireProblem(value: unknown): string | null {
  try {
    const sent = JSON.parse(JSON.stringify(wireTransformer.serialize(value))) as Parameters<typeof wireTransformer.deserialize>[0];
    return canonical(wireTransformer.deserialize(sent)) === canonical(value) ? null : 'comes back from the wire changed';
  } catch (error) {
    return `does not serialise: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * `looplane doctor`'s check of stored JSON: finds every row whose JSON holds a key superjson
 * refuses (once a 500 on every listing that returned it) and verifies that the API's wire format
 * now serves it exactly as stored. Nothing is written: the rows stay as they are (events are
 * immutable, audit rows hash-chained). One sequential scan per column, filtered in Postgres.
 */
export async function checkReservedKeys(databaseUrl: string): Promise<ReservedKeysReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const report: ReservedKeysReport = { rowsWithReservedKeys: {}, unreadable: [] };
    for await (const { table, column, rows } of scanStoredJson(client, CANDIDATE)) {
      let count = 0;
      for (const row of rows) {
        const value: unknown = JSON.parse(row.json);
        if (!hasReservedKey(value)) continue;
        count++;
        const problem = wireProblem(value);
        if (problem) report.unreadable.push({ table, column, id: row.id, reason: problem });
      }
      if (count > 0) report.rowsWithReservedKeys[`${table}.${column}`] = count;
    }
    return report;
  } finally {
    await client.end();
  }
}
