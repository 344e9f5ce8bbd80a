export { createTestDatabase, createEmptyDatabase, pgAdminUrl, type TestDatabase } from './test-database';
export { repoRoot } from './paths';
