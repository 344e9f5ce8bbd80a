import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
