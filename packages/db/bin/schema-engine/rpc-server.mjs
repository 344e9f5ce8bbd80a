// `schema-engine --datamodels <file>... --datasource <json>`: the
// line-delimited JSON-RPC 2.0 server the Prisma CLI talks to over stdio
// (one request per stdin line, one response per stdout line). Every method
// is forwarded to the WASM engine, which has the same method names and
// parameter shapes as the native engine's RPC API.

import fs from 'node:fs';
import readline from 'node:readline';
import { lastPanicMessage, loadSchemaEngineWasm } from './wasm.mjs';
import { createAdapterFactory } from './adapter.mjs';
import { pgConfigFromUrl, quoteIdent, withMaintenanceClient } from './pg-config.mjs';
import { debug, forwardEngineLog, log } from './log.mjs';

// Same code/message the native engine uses; the CLI only reads `data`.
const RPC_ERROR = { code: 4466, message: 'An error happened. Check the data field for details.' };

/**
 * WASM errors carry the user-facing text, then a tracing span trace
 * ("   0: sql_schema_connector::..."). The CLI prints `data.message` as-is,
 * so keep the trace apart, like the native engine's `backtrace`.
 */
function toRpcErrorData(error, explain = (message) => message) {
  const isPanic = error instanceof WebAssembly.RuntimeError;
  const text = isPanic ? `${lastPanicMessage() ?? 'The schema engine panicked'}` : explain(String(error?.message ?? error));
  const traceStart = text.search(/\n\s*0: /);
  return {
    is_panic: isPanic,
    message: (traceStart === -1 ? text : text.slice(0, traceStart)).trim(),
    backtrace: traceStart === -1 ? (isPanic ? error.stack : undefined) : text.slice(traceStart + 1),
    error_code: error?.code,
    meta: error?.meta,
  };
}

/**
 * Methods the native engine has but the WASM one implements differently or
 * not at all. `printToCli(text)` asks the CLI to print to ITS stdout.
 */
function localMethods(datasource, printToCli) {
  return {
    // The WASM engine has no createDatabase (it only gets connections from
    // the adapter); do what `cli create-database` does.
    async createDatabase(params) {
      const url = params?.datasource?.url ?? datasource.url;
      const { config } = pgConfigFromUrl(url);
      await withMaintenanceClient(config, (client) => client.query(`CREATE DATABASE ${quoteIdent(config.database)}`));
      return { databaseName: config.database };
    },
    // Renamed in the WASM API.
    getDatabaseVersion: (params, engine) => engine.version(params ?? undefined),
    // Engine bug (this WASM build): evaluateDataLoss and createMigration
    // compute "the schema the migrations produce" through a shadow-DB path
    // that ignores our adapter factory, and fail with "PostgreSQL shadow DB
    // must be provided through an external factory" -- unless that schema is
    // already in the engine's per-instance migration cache. devDiagnostic
    // fills the cache through the working path (once the database has the
    // migrations applied, which `migrate dev` does just before). Hit on
    // `migrate dev` with pending migrations, e.g. on a fresh database. Both
    // methods only read, so warming the cache and retrying once is safe.
    evaluateDataLoss: (params, engine) => withMigrationCacheRetry('evaluateDataLoss', params, engine),
    createMigration: (params, engine) => withMigrationCacheRetry('createMigration', params, engine),
    // The WASM engine returns the diff in `stdout`; the native one instead
    // sends the CLI a "print" request and returns stdout: null, and the CLI
    // only prints what arrives that way (`migrate diff`, also `--output`).
    async diff(params, engine) {
      const result = await engine.diff(params);
      if (result.stdout) await printToCli(result.stdout.replace(/\n$/, ''));
      return { ...result, stdout: null };
    },
  };
}

async function withMigrationCacheRetry(method, params, engine) {
  try {
    return await engine[method](params);
  } catch (error) {
    if (!String(error?.message).includes('shadow DB must be provided through an external factory')) throw error;
    debug(`${method}: warming the migration cache with devDiagnostic, then retrying`);
    await engine.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters });
    return engine[method](params);
  }
}

/**
 * Commands that need no schema (`migrate diff`, `db execute`) start the
 * engine without --datamodels. The native engine accepts that; the WASM one
 * panics ("validate_multi_file() must be called with at least one file").
 * A datasource-only schema is the neutral stand-in: the adapter is Postgres
 * anyway, and such commands pass their real schemas in the RPC params.
 */
const EMPTY_POSTGRES_SCHEMA = ['schema.prisma', 'datasource db {\n  provider = "postgresql"\n}\n'];

/**
 * Starts the server; resolves never (the process exits from here when the
 * CLI closes stdin or signals us).
 */
export async function runRpcServer({ datamodelPaths, datasource }) {
  const { SchemaEngine } = await loadSchemaEngineWasm();
  const datamodels = datamodelPaths.map((file) => [file, fs.readFileSync(file, 'utf8')]);
  if (datamodels.length === 0) datamodels.push(EMPTY_POSTGRES_SCHEMA);
  // A Rust panic inside an engine task traps outside any awaited promise.
  // Report it the way the native engine does (an ERROR line, exit code 101)
  // so the CLI shows the panic message instead of a bare crash.
  process.on('uncaughtException', (error) => {
    const data = toRpcErrorData(error);
    log('ERROR', data.message, { backtrace: data.backtrace });
    process.exit(data.is_panic ? 101 : 1);
  });
  const adapters = createAdapterFactory(datasource);
  // The engine connects (and queries the server version) right here, so
  // even database-free commands like `migrate diff --from-empty
  // --to-schema` need a reachable datasource url with the WASM engine.
  // WHY not exit on failure: the CLI only notices an early exit if it has
  // already sent its request; otherwise it waits forever and then exits 0
  // silently. So keep serving, and answer every request with this error.
  const enginePromise = SchemaEngine.new({ datamodels }, forwardEngineLog, adapters.factory).catch((error) => {
    const message = adapters.explain(error?.message ?? error);
    log('ERROR', message);
    return Promise.reject(new Error(message));
  });
  enginePromise.catch(() => {}); // handled per request
  const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

  // Requests WE send to the CLI (only "print"), awaiting its response line.
  const pendingToCli = new Map();
  let nextIdToCli = 0;
  const printToCli = (content) =>
    new Promise((resolve) => {
      const id = `shim-print-${++nextIdToCli}`;
      pendingToCli.set(id, resolve);
      send({ id, method: 'print', params: { content } });
    });

  const local = localMethods(datasource, printToCli);

  // The engine's Rust side borrows its state mutably per call: run requests
  // one at a time, in arrival order (the CLI sends them one by one anyway).
  let queue = Promise.resolve();
  let panicked = false;

  async function handle(request) {
    const { id, method, params } = request;
    debug(`rpc request ${method}`, { id });
    try {
      const engine = await enginePromise;
      let result;
      if (local[method]) result = await local[method](params, engine);
      else if (typeof engine[method] === 'function' && method !== 'free' && method !== 'constructor') {
        result = await engine[method](params ?? undefined);
      } else {
        send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
        return;
      }
      // `result` must be present for the CLI to accept the response.
      send({ id, result: result ?? null });
    } catch (error) {
      const data = toRpcErrorData(error, adapters.explain);
      log('ERROR', data.message, { method, error_code: data.error_code });
      send({ id, error: { ...RPC_ERROR, data } });
      if (data.is_panic) panicked = true; // the WASM instance is unusable after a trap
    }
  }

  let shuttingDown = false;
  async function shutdown(exitCode) {
    if (shuttingDown) return;
    shuttingDown = true;
    // Exit explicitly: the engine leaves 10 s / 60 s timers and pg pools
    // alive, which would keep the CLI waiting on us for up to a minute.
    const hardStop = setTimeout(() => process.exit(exitCode || 1), 5000);
    try {
      await queue;
      await adapters.close();
    } finally {
      clearTimeout(hardStop);
      process.exit(panicked ? 101 : exitCode);
    }
  }

  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    if (typeof message.method !== 'string') {
      // A response from the CLI to one of our "print" requests.
      pendingToCli.get(message.id)?.();
      pendingToCli.delete(message.id);
      return;
    }
    queue = queue.then(() => handle(message));
    queue.then(() => panicked && shutdown(101));
  });
  // The CLI's stop() ends stdin (and then SIGTERMs us right away on Unix).
  lines.on('close', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));
  process.on('SIGINT', () => shutdown(130));
  return new Promise(() => {});
}
