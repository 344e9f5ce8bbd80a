import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { importsOf } from './import-rules';

/**
 * The layers of packages/engine/src, bottom first (#31): a folder imports only from its own layer
 * or a lower one, so the engine's folders form no cycle (events → state → loop). A new folder
 * must be placed here before it holds code.
 */
export const ENGINE_LAYERS: readonly (readonly string[])[] = [
  // What a run is configured with: schemas (config's run config names skills).
  ['config', 'skills'],
  // The log: payload schemas (breaker trips and replay markers among them), the codec, the clock.
  ['events'],
  // What the engine reaches outside itself, typed in the events' terms.
  ['ports'],
  // Tool definitions and token estimates, which the fold keeps as running sums.
  ['prompt'],
  // State = fold(events), with everything the fold keeps (breaker windows, replay progress).
  ['state'],
  // Pure decisions over the state: money, compaction, model output, a replay's comparison.
  ['budget', 'compaction', 'model', 'replay'],
  // next(state) → action; drive() performs actions through the ports.
  ['loop'],
  // Test doubles and harnesses over the whole engine.
  ['testing'],
];

/** One source file of the engine: `path` relative to packages/engine/src, with `/` separators. */
export interface EngineSource {
  path: string;
  source: string;
}

const ENGINE_SRC = join('packages', 'engine', 'src');

function layerOf(folder: string): number {
  return ENGINE_LAYERS.findIndex((layer) => layer.includes(folder));
}

/** Tests drive the whole engine through `testing/`; only the code they test is layered. */
function isLayered(path: string): boolean {
  return path.includes('/') && !path.endsWith('.test.ts');
}

/** Every import of a lower folder from a higher one, as `path: specifier (why)` lines. */
export function engineLayerViolations(files: readonly EngineSource[]): string[] {
  const found: string[] = [];
  for (const file of files.filter((f) => isLayered(f.path))) {
    const folder = file.path.split('/')[0]!;
    const layer = layerOf(folder);
    if (layer < 0) {
      found.push(`${file.path}: (folder ${folder} has no layer in ENGINE_LAYERS)`);
      continue;
    }
    for (const specifier of importsOf(file.source).filter((s) => s.startsWith('.'))) {
      const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
      if (target.startsWith('..')) {
        found.push(`${file.path}: ${specifier} (leaves packages/engine/src)`);
        continue;
      }
      const to = target.includes('/') ? target.split('/')[0]! : null;
      if (to === folder) continue;
      if (to === null) found.push(`${file.path}: ${specifier} (the package's entry points sit above every layer)`);
      else if (layerOf(to) < 0) found.push(`${file.path}: ${specifier} (folder ${to} has no layer in ENGINE_LAYERS)`);
      else if (layerOf(to) > layer) found.push(`${file.path}: ${specifier} (${folder} may not import ${to}, a higher layer)`);
    }
  }
  return found;
}

function sourcesUnder(dir: string): EngineSource[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({ path: relative(dir, path).split(sep).join('/'), source: readFileSync(path, 'utf8') }));
}

/** The violations of the engine under `root`, with paths relative to root. */
export function checkEngineLayers(root: string): string[] {
  return engineLayerViolations(sourcesUnder(join(root, ENGINE_SRC))).map((line) => `${ENGINE_SRC.split(sep).join('/')}/${line}`);
}
