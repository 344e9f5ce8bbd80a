import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInputs, sourceFingerprint } from './web-build';

let root: string;

async function put(path: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'looplane-fp-'));
  await put('package-lock.json', '{}');
  await put('apps/web/next.config.ts', 'export default {}');
  await put('apps/web/src/app/page.tsx', 'export default 1');
  await put('packages/api/src/index.ts', 'export {}');
  await put('packages/db/src/generated/prisma/client.ts', 'generated');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('sourceFingerprint', () => {
  it('covers the web app, the packages it can import, the lockfile and the schema', async () => {
    await put('prisma/schema.prisma', 'model A {}');
    expect(buildInputs(root).map((file) => relative(root, file))).toEqual([
      'apps/web/next.config.ts',
      'apps/web/src/app/page.tsx',
      'package-lock.json',
      'packages/api/src/index.ts',
      'packages/db/src/generated/prisma/client.ts',
      'prisma/schema.prisma',
    ]);
  });

  it('is stable while nothing changes', () => {
    expect(sourceFingerprint(root)).toBe(sourceFingerprint(root));
  });

  it.each([
    ['apps/web/src/app/page.tsx', 'export default 2'],
    ['packages/api/src/index.ts', 'export const x = 1'],
    ['package-lock.json', '{"v":2}'],
    ['apps/web/src/app/new/page.tsx', 'export default 3'],
  ])('changes when %s changes', async (path, content) => {
    const before = sourceFingerprint(root);
    await put(path, content);
    expect(sourceFingerprint(root)).not.toBe(before);
  });

  it.each([
    'packages/cli/src/main.ts',
    'packages/testkit/src/index.ts',
    'packages/api/src/x.test.ts',
    'apps/web/.next/BUILD_ID',
    'apps/web/next-env.d.ts',
    'apps/web/node_modules/x/index.js',
  ])('ignores %s', async (path) => {
    const before = sourceFingerprint(root);
    await put(path, 'anything');
    expect(sourceFingerprint(root)).toBe(before);
  });
});
