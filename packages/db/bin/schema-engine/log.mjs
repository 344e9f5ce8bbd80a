// Logging for the schema-engine shim.
//
// WHY this format: the Prisma CLI reads the engine's stderr line by line and
// JSON.parses every line, expecting the `tracing` JSON the native Rust engine
// prints: {"timestamp","level","fields":{"message",...},"target"}. It uses
// `fields.message` of ERROR lines as the error text it shows, and for the
// `cli <command>` mode it looks for an ERROR line with target
// "schema_engine::logger" and `fields.error_code` (e.g. P1003 "database does
// not exist", which makes `migrate dev` create the database). A stray
// non-JSON line on stderr breaks that parsing, so everything goes through
// here. stdout is reserved for JSON-RPC responses.

const LOGGER_TARGET = 'schema_engine::logger';

/** Writes one native-style JSON log line to stderr. */
export function log(level, message, extraFields = {}, target = 'schema_engine_shim') {
  const line = {
    timestamp: new Date().toISOString(),
    level,
    fields: { message, ...extraFields },
    target,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

export const info = (message, fields) => log('INFO', message, fields);

/** The error line the CLI recognises as a user-facing error (with a P-code). */
export function userError(message, errorCode) {
  log('ERROR', message, errorCode ? { error_code: errorCode } : {}, LOGGER_TARGET);
}

/**
 * Forwards a log line produced by the WASM engine. Those are already
 * tracing-JSON strings (often with a trailing newline); pass them through
 * unchanged so the CLI sees exactly what the native engine would print.
 */
export function forwardEngineLog(raw) {
  const text = String(raw).trim();
  if (!text) return;
  for (const line of text.split('\n')) {
    if (line.trim()) process.stderr.write(`${line.trim()}\n`);
  }
}

/** Debug output, only with SCHEMA_ENGINE_SHIM_DEBUG=1 (still JSON, still stderr). */
export function debug(message, fields) {
  if (process.env.SCHEMA_ENGINE_SHIM_DEBUG === '1') log('DEBUG', message, fields);
}
