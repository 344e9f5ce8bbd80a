import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The JSON columns whose content comes from outside (a model's tool calls and what they led to,
 * remote MCP catalogues, what people typed), with the SQL that names a row in a report.
 */
const STORED_JSON_COLUMNS: ReadonlyArray<{ table: string; column: string; rowKey: string }> = [
  { table: 'Event', column: 'payload', rowKey: 'id::text' },
  { table: 'Approval', column: 'args', rowKey: 'id' },
  { table: 'Approval', column: 'editedArgs', rowKey: 'id' },
  { table: 'Approval', column: 'held', rowKey: 'id' },
  { table: 'AuditLog', column: 'data', rowKey: 'id::text' },
  { table: 'MemoryEntry', column: 'value', rowKey: `"runId" || ' ' || key || ' v' || version` },
  { table: 'McpServer', column: 'tools', rowKey: 'id' },
  { table: 'McpServer', column: 'args', rowKey: 'id' },
  { table: 'ModelEndpoint', column: 'config', rowKey: 'id' },
  { table: 'AgentTemplate', column: 'tools', rowKey: 'id' },
  { table: 'PolicyVersion', column: 'document', rowKey: 'id' },
];

/** A row whose JSON text matched: its key (as `rowKey` writes it) and the JSON as text. */
export interface StoredJsonRow {
  id: string;
  json: string;
}

const SCANS = STORED_JSON_COLUMNS.map(({ table, column, rowKey }) => ({
  table,
  column,
  query: namedQuery({
    name: `looplane_doctor_json_${table}_${column}_v1`.toLowerCase(),
    params: { pattern: param.text },
    text: `SELECT ${rowKey} AS id, "${column}"::text AS json FROM "${table}" WHERE "${column}"::text ~ :pattern ORDER BY 1`,
  }).returns<StoredJsonRow>(),
}));

/**
 * The rows of every outside-content JSON column whose text matches the POSIX regex `pattern`,
 * one column at a time (one sequential scan per column, filtered in Postgres). Read-only.
 */
export async function* scanStoredJson(db: Queryable, pattern: string): AsyncGenerator<{ table: string; column: string; rows: StoredJsonRow[] }> {
  for (const { table, column, query } of SCANS) {
    yield { table, column, rows: rowsOf(query, await db.query(query.bind({ pattern }))) };
  }
}
