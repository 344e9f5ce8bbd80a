import { defineConfig } from 'vitest/config';

// Test tiers by file name (STYLE.md 10): `*.test.ts` unit, `*.int.test.ts` against real
// Postgres, Redis and bwrap. e2e specs run under Playwright, not here.
const exclude = ['**/node_modules/**', '**/.next/**', 'e2e/**', '**/generated/**'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...exclude, '**/*.int.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/**/*.int.test.ts', 'apps/**/*.int.test.ts', 'bench/**/*.int.test.ts'],
          exclude,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file makes its own database; two at a time fits two cores.
          maxWorkers: 2,
          // Runs after the unit project; separate groups may use different worker counts.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
