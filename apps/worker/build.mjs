// Bundles the worker into plain JavaScript (dist/*.mjs) so production runs `node dist/main.mjs`
// without a TypeScript loader: the loader's own thread and transpile caches cost about 50 MB of
// resident memory per worker process and slow every start. Only the workspace packages
// (@looplane/*, TypeScript source) are bundled; every npm dependency stays external and loads
// from node_modules as usual. Takes well under a second; `looplane start` runs it every time.
//
//   node apps/worker/build.mjs          (also `npm run build`)
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const workerDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(workerDir, '..', '..');

/** The entry points: the worker itself, a swarm node's dedicated process, and the worker with the test tools (benchmarks). */
export const ENTRIES = {
  main: 'src/main.ts',
  'node-process-main': 'src/swarm/isolation/node-process-main.ts',
  'worker-with-test-tools': 'src/testing/worker-with-test-tools.ts',
};

/** Every npm dependency of every workspace package: left external (the benchmarks' bundles use it too). */
export function npmDependencies() {
  const names = new Set();
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(repoRoot, group))) {
      const file = join(repoRoot, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies })) {
        if (!dep.startsWith('@looplane/')) names.add(dep);
      }
    }
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

/**
 * Builds dist/: one self-contained file per entry (no shared chunks, so nothing is loaded from
 * dist/ after a process started), each written next to its final name and renamed over it: a
 * worker starting while another build runs reads either the old file or the new one, never half
 * of one. Returns the path of each entry's bundle.
 */
export async function buildWorker({ outdir = join(workerDir, 'dist') } = {}) {
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(workerDir, file)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: npmDependencies(),
    // Stack traces name the TypeScript lines with NODE_OPTIONS=--enable-source-maps.
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
  return Object.fromEntries(Object.keys(ENTRIES).map((name) => [name, join(outdir, `${name}.mjs`)]));
}

// Run as a script (through any symlink), not imported.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const started = performance.now();
  await buildWorker();
  console.log(`worker bundled into ${join(workerDir, 'dist')} in ${Math.round(performance.now() - started)} ms`);
}
