// The peer's density process as plain JavaScript: bundled by esbuild (npm packages left as
// imports), run under plain node like Looplane's worker bundle, so neither side pays for a
// TypeScript loader in the measured process. Built once per benchmark process, into bench/langgraph/dist.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

let built: Promise<string> | null = null;

/** The path of the bundled density child (bench/langgraph/density-child.ts). */
export function langGraphChildBundle(): Promise<string> {
  built ??= (async () => {
    const outfile = fileURLToPath(new URL('./dist/density-child.mjs', import.meta.url));
    await build({
      entryPoints: [fileURLToPath(new URL('./density-child.ts', import.meta.url))],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    return outfile;
  })();
  return built;
}
