import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The monorepo root (this file is packages/cli/src/start/paths.ts). */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where `looplane start` finds the pieces it runs. */
export const paths = {
  repoRoot,
  webDir: join(repoRoot, 'apps', 'web'),
  workerDir: join(repoRoot, 'apps', 'worker'),
  /** Run with `node` directly: `npx next` would leave next-server running when killed. */
  nextBin: join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next'),
  prismaBin: join(repoRoot, 'node_modules', 'prisma', 'build', 'index.js'),
  generatedPrismaClient: join(repoRoot, 'packages', 'db', 'src', 'generated', 'prisma', 'client.ts'),
};
