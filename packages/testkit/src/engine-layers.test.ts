import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_LAYERS, checkEngineLayers, engineLayerViolations } from './engine-layers';
import { repoRoot } from './paths';

describe('engine layers', () => {
  it("the repository's engine imports no higher layer", () => {
    expect(checkEngineLayers(repoRoot)).toEqual([]);
  });

  it('places every folder of the engine in exactly one layer', () => {
    const folders = readdirSync(join(repoRoot, 'packages', 'engine', 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(ENGINE_LAYERS.flat().sort()).toEqual(folders);
  });

  it('reports a planted upward import, and lets a folder import its own layer or lower ones', () => {
    const found = engineLayerViolations([
      { path: 'events/payloads.ts', source: `import { replayMarkerSchema } from '../replay/recording';\nimport { x } from './json-object';` },
      { path: 'state/fold.ts', source: `import type { Action } from '../loop/actions';\nimport type { EngineEvent } from '../events/event-types';` },
      { path: 'ports/x.ts', source: `type T = import('../state/run-state').RunState;\nexport * from '../index';` },
      { path: 'config/run-config.ts', source: `import { skillNameSchema } from '../skills/skill-schemas';` },
      { path: 'loop/next.ts', source: `import { fold } from '../state/fold';\nimport { costMicros } from '../budget/cost';` },
      { path: 'state/fold.test.ts', source: `import { drive } from '../loop/drive';` },
      { path: 'index.ts', source: `export { drive } from './loop/drive';` },
      { path: 'widgets/a.ts', source: 'export const a = 1;' },
    ]);
    expect(found).toEqual([
      'events/payloads.ts: ../replay/recording (events may not import replay, a higher layer)',
      'state/fold.ts: ../loop/actions (state may not import loop, a higher layer)',
      'ports/x.ts: ../state/run-state (ports may not import state, a higher layer)',
      "ports/x.ts: ../index (the package's entry points sit above every layer)",
      'widgets/a.ts: (folder widgets has no layer in ENGINE_LAYERS)',
    ]);
  });

  it('reads the engine from disk', () => {
    const root = mkdtempSync(join(tmpdir(), 'looplane-engine-layers-'));
    const put = (path: string, text: string) => {
      const file = join(root, 'packages', 'engine', 'src', path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    };
    try {
      put('events/planted.ts', `import { drive } from '../loop/drive';\n`);
      put('loop/drive.ts', `import { createEvent } from '../events/create-event';\n`);
      expect(checkEngineLayers(root)).toEqual(['packages/engine/src/events/planted.ts: ../loop/drive (events may not import loop, a higher layer)']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
