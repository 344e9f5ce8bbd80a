// Loads @prisma/schema-engine-wasm in plain Node.
//
// WHY by hand: the package's entry does `import * as wasm from
// "./schema_engine_bg.wasm"` (ESM WebAssembly integration), which Node 20
// only supports behind --experimental-wasm-modules. The wasm-bindgen glue
// (schema_engine_bg.js) is ordinary ESM, so we instantiate the .wasm with it
// as the import object and wire them together the way the entry would.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

let loaded;

/**
 * On a Rust panic the engine's panic hook calls
 * `global.PRISMA_WASM_PANIC_REGISTRY.set_message(msg)` before trapping (the
 * CLI defines it in its own process; we must too, or the hook itself throws
 * a TypeError and the real message is lost). The trap then surfaces as a
 * WebAssembly.RuntimeError; rpc-server reports it with this message.
 */
const panicRegistry = {
  message: undefined,
  set_message(message) {
    this.message = message;
  },
};
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= panicRegistry;

/** The message of the last engine panic, if any. */
export const lastPanicMessage = () => globalThis.PRISMA_WASM_PANIC_REGISTRY?.message;

/** @returns {Promise<typeof import('@prisma/schema-engine-wasm')>} the initialised bindings. */
export function loadSchemaEngineWasm() {
  loaded ??= (async () => {
    // `exports["."].require` points at schema_engine.js: its folder holds the glue and the .wasm.
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    const bindings = await import(pathToFileURL(path.join(dir, 'schema_engine_bg.js')).href);
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm')), {
      './schema_engine_bg.js': bindings,
    });
    bindings.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return bindings;
  })();
  return loaded;
}
