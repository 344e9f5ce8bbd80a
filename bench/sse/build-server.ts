// The benchmarks' API server (server.ts) as plain JavaScript, bundled like the worker
// (apps/worker/build.mjs): the workspace packages' TypeScript is bundled, every npm dependency
// stays an import from node_modules. So the process that creates runs in a timed window pays for
// no TypeScript loader, as neither the worker nor the LangGraph peer does. Built once per
// benchmark process, into bench/sse/dist.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { npmDependencies } from '../../apps/worker/build.mjs';

let built: Promise<string> | null = null;

/** The path of the bundled API server. */
export function apiServerBundle(): Promise<string> {
  built ??= (async () => {
    const outfile = fileURLToPath(new URL('./dist/server.mjs', import.meta.url));
    await build({
      entryPoints: [fileURLToPath(new URL('./server.ts', import.meta.url))],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: npmDependencies(),
      logLevel: 'warning',
    });
    return outfile;
  })();
  return built;
}
