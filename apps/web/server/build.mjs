// Bundles the web's HTTP server (server/main.ts and what it imports from src/) into one plain
// JavaScript file, dist/server.mjs, which `looplane start`, the container and the e2e suite run
// with `node`. npm dependencies (next, pino, zod) stay external; takes well under a second.
//
//   node apps/web/server/build.mjs          (also part of `npm run build` in apps/web)
import { mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes dist/server.mjs next to its final name and renames it over it, so a server starting
 * while another build runs reads the old file or the new one, never half of one. Returns its path.
 */
export async function buildWebServer({ outdir = join(webDir, 'dist') } = {}) {
  const result = await build({
    entryPoints: { server: join(webDir, 'server', 'main.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(outdir, { recursive: true });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  return join(outdir, 'server.mjs');
}

// Run as a script (through any symlink), not imported.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const started = performance.now();
  const file = await buildWebServer();
  process.stdout.write(`web server bundled into ${file} in ${Math.round(performance.now() - started)} ms\n`);
}
