import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, INSTALL_HINT } from './redis-binary';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'looplane-path-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('findOnPath', () => {
  it('finds an executable and ignores non-executable files', async () => {
    await writeFile(join(dir, 'redis-server'), 'not executable');
    expect(findOnPath('redis-server', `/nonexistent:${dir}`)).toBeNull();
    await chmod(join(dir, 'redis-server'), 0o755);
    expect(findOnPath('redis-server', `/nonexistent:${dir}`)).toBe(join(dir, 'redis-server'));
  });

  it('has a one-line install hint', () => {
    expect(INSTALL_HINT).not.toContain('\n');
  });
});
