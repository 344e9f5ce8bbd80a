// Statements about the database itself rather than one area's tables: health, bootstrap, doctor scans.
export { pingDatabase } from './database-ping';
export { ensureDatabase } from './ensure-database';
export { scanStoredJson, type StoredJsonRow } from './stored-json-scan.repository';
