import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkRepository, checkSqlPlacement, importsOf, type Workspace } from './import-rules';
import { sqlFindings } from './sql-rules';
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

  it('the repository holds no SQL outside packages/db', () => {
    expect(checkSqlPlacement(repoRoot)).toEqual([]);
  });

  it('finds SQL planted outside packages/db, and lets packages/db, tests and harnesses hold it', () => {
    const root = mkdtempSync(join(tmpdir(), 'looplane-sql-rules-'));
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    try {
      put('apps/worker/package.json', JSON.stringify({ name: '@looplane/worker' }));
      put('packages/api/package.json', JSON.stringify({ name: '@looplane/api' }));
      put('packages/db/package.json', JSON.stringify({ name: '@looplane/db' }));
      put('apps/worker/src/runtime/planted.ts', `export const x = 1;\nconst RUN_SQL = \`SELECT id FROM "Run" WHERE id = $1\`;\n`);
      put('packages/api/src/services/planted.ts', 'await db.$queryRaw`SELECT 1`;\nawait pool.query({ name: "q", text, values: [] });\n');
      put('packages/db/src/runs/fine.ts', 'const Q = `SELECT id FROM "Run"`;\n');
      put('packages/api/src/services/fine.test.ts', 'await db.$executeRaw`DELETE FROM "Run"`;\n');
      put('apps/worker/src/testing/harness.ts', 'await pool.query(`TRUNCATE "Run"`);\n');
      expect(checkSqlPlacement(root).sort()).toEqual([
        'apps/worker/src/runtime/planted.ts:2 (SQL text outside packages/db)',
        'apps/worker/src/runtime/planted.ts:2 (a SQL text constant outside packages/db)',
        "packages/api/src/services/planted.ts:1 (Prisma's raw SQL outside packages/db)",
        'packages/api/src/services/planted.ts:1 (SQL text outside packages/db)',
        'packages/api/src/services/planted.ts:2 (a pg query with its text outside packages/db)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tells SQL from prose, tRPC procedures and comments', () => {
    expect(sqlFindings(`const tags = ['INPUT', 'TEXTAREA', 'SELECT'];`)).toEqual([]);
    expect(sqlFindings(`export const list = procedure.query(async ({ ctx }) => ctx.db.run.findMany());`)).toEqual([]);
    expect(sqlFindings(`// SELECT id FROM "Run" is what this replaces\n/* INSERT INTO "Run" */`)).toEqual([]);
    expect(sqlFindings(`const text = 'Select an agent from the list';`)).toEqual([]);
    expect(sqlFindings(`const q = "UPDATE \\"Run\\" SET status = 'failed'";`)).toEqual([{ line: 1, what: 'SQL text' }]);
    expect(sqlFindings('await client.query(`LISTEN x`)')).toEqual([{ line: 1, what: 'a pg query with its text' }]);
  });
});
