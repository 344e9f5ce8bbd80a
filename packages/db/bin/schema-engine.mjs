#!/usr/bin/env node
// Offline stand-in for Prisma's native `schema-engine` binary.
//
// WHY: the Prisma 7 CLI downloads the native schema engine from Prisma's
// binary host before almost every command (even `generate`), and this
// environment has no network. The CLI honours PRISMA_SCHEMA_ENGINE_BINARY
// (set in /prisma.config.ts to this file): it spawns it exactly like the
// native binary. We answer with @prisma/schema-engine-wasm (the same engine
// compiled to WebAssembly) driving Postgres through @prisma/adapter-pg.
// This is not a Prisma-supported path: prisma, @prisma/adapter-pg and
// @prisma/schema-engine-wasm are pinned exactly, and
// packages/db/src/migrations.int.test.ts covers it end to end.
//
// Invocations the CLI makes (node_modules/prisma/build/cli.js):
//   schema-engine --version
//   schema-engine --datasource '{"url":...}' cli can-connect-to-database|create-database|drop-database
//   schema-engine --datamodels <file> [--datamodels <file>...] [--datasource <json>]
//                 [--enabled-preview-features a,b] [--extension-types <json>]
//       -> line-delimited JSON-RPC server on stdin/stdout
// stdout carries only protocol output; logs go to stderr as JSON lines.
//
// Env: SCHEMA_ENGINE_SHIM_DEBUG=1 logs every RPC call to stderr (shown by
// the CLI with DEBUG="prisma:schemaEngine:stderr").

import { parseArgs } from 'node:util';
import { loadSchemaEngineWasm } from './schema-engine/wasm.mjs';
import { runCliCommand } from './schema-engine/cli-commands.mjs';
import { runRpcServer } from './schema-engine/rpc-server.mjs';
import { log } from './schema-engine/log.mjs';

const USAGE = `Usage: schema-engine [--version] [--datamodels <file>...] [--datasource <json>] [cli <command>]
  cli commands: can-connect-to-database | create-database | drop-database`;

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      version: { type: 'boolean', short: 'V' },
      help: { type: 'boolean', short: 'h' },
      datamodels: { type: 'string', multiple: true },
      datasource: { type: 'string' },
      // Passed by the CLI when configured; the WASM engine takes neither as
      // a constructor option, so they are accepted and ignored.
      'enabled-preview-features': { type: 'string' },
      'extension-types': { type: 'string' },
    },
  });

  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    // The CLI shows this line in `prisma --version` / `prisma version`.
    const { version } = await loadSchemaEngineWasm();
    process.stdout.write(`schema-engine-cli ${version()}\n`);
    return 0;
  }

  const datasource = values.datasource ? JSON.parse(values.datasource) : {};

  if (positionals[0] === 'cli') {
    return runCliCommand(positionals[1], datasource);
  }
  if (positionals.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  await runRpcServer({ datamodelPaths: values.datamodels ?? [], datasource });
  return 0; // not reached: the server exits the process itself
}

main(process.argv.slice(2)).then(
  // Exit explicitly: pg sockets / WASM timers must not keep us alive.
  (code) => process.exit(code),
  (error) => {
    // Exit code 1 makes the CLI report "Error in Schema engine: <last ERROR message>".
    log('ERROR', error?.message ?? String(error), { backtrace: error?.stack });
    process.exit(1);
  },
);
