import { describe, expect, it } from 'vitest';
import { checkFile, checkRepository, importsOf, type Workspace } from './import-rules';
import { repoRoot } from './paths';

const names = new Set(['@looplane/engine', '@looplane/shared', '@looplane/db', '@looplane/api', '@looplane/web', '@looplane/events']);
function ws(name: string, declared: string[] = []): Workspace {
  return { name, dir: `/repo/packages/${name.split('/')[1]}`, kind: name === '@looplane/web' ? 'app' : 'package', declared: new Set(declared) };
}
function check(workspace: Workspace, source: string) {
  return checkFile({ workspace, path: `${workspace.dir}/src/x.ts`, source }, names).map((v) => v.rule);
}

describe('import rules', () => {
  it('the repository has no wrong-way imports', () => {
    expect(checkRepository(repoRoot)).toEqual([]);
  });

  it('finds static, dynamic, side-effect and require imports', () => {
    const source = `import a from 'a';\nimport { b } from "b";\nexport * from './c';\nimport 'd';\nconst e = await import('e');\nconst f = require('f');`;
    expect(importsOf(source)).toEqual(['a', 'b', './c', 'd', 'e', 'f']);
  });

  it('refuses IO and other workspace packages in the engine', () => {
    const engine = ws('@looplane/engine', ['@looplane/shared', '@looplane/db']);
    expect(check(engine, `import { readFile } from 'node:fs/promises';`)).toContain('the engine does no IO');
    expect(check(engine, `import pg from 'pg';`)).toContain('the engine does no IO');
    expect(check(engine, `import { x } from '@prisma/client';`)).toContain('the engine does no IO');
    expect(check(engine, `import { createDb } from '@looplane/db';`)).toContain('the engine imports only @looplane/shared');
    expect(check(engine, `import { AppError } from '@looplane/shared';`)).toEqual([]);
  });

  it("keeps the events package browser-safe: the engine's event codec and zod only", () => {
    const events = ws('@looplane/events', ['@looplane/engine', '@looplane/shared']);
    expect(check(events, `import { decodeEvent } from '@looplane/engine/events';\nimport { z } from 'zod';`)).toEqual([]);
    expect(check(events, `import { Buffer } from 'node:buffer';`)).toContain('the events package is browser-safe: no Node built-ins');
    expect(check(events, `import { inspect } from 'util';`)).toContain('the events package is browser-safe: no Node built-ins');
    expect(check(events, `import { drive } from '@looplane/engine';`)).toContain('the events package imports only @looplane/engine/events and zod');
    expect(check(events, `import { AppError } from '@looplane/shared';`)).toContain('the events package imports only @looplane/engine/events and zod');
  });

  it('refuses packages importing apps, the db importing the api, and undeclared workspace deps', () => {
    expect(check(ws('@looplane/db', ['@looplane/web']), `import x from '@looplane/web';`)).toContain('packages never import apps');
    expect(check(ws('@looplane/db', ['@looplane/api']), `import x from '@looplane/api';`)).toContain('@looplane/db never imports @looplane/api');
    expect(check(ws('@looplane/client', ['@looplane/api']), `import x from '@looplane/api';`)).toContain('@looplane/client never imports @looplane/api');
    expect(check(ws('@looplane/api'), `import x from '@looplane/db';`)).toContain(`@looplane/db is not declared in @looplane/api's package.json`);
    expect(check(ws('@looplane/api'), `import x from '../../db/src/client';`)).toContain('relative import leaves its workspace');
  });
});
