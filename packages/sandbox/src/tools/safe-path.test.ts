import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInside } from './safe-path';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'safe-path-'));
  root = join(base, 'work');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'a');
  await writeFile(join(base, 'outside.txt'), 'secret');
  await symlink('a.ts', join(root, 'src', 'inner-link'));
  await symlink('../outside.txt', join(root, 'out-link'));
  await symlink(base, join(root, 'dir-link'));
  await symlink('missing-target', join(root, 'dangling'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('resolveInside', () => {
  it('resolves relative and /workspace paths, following symlinks that stay inside', async () => {
    expect((await resolveInside(root, 'src/a.ts')).relative).toBe('src/a.ts');
    expect((await resolveInside(root, '/workspace/src/a.ts')).relative).toBe('src/a.ts');
    expect((await resolveInside(root, 'src/inner-link')).relative).toBe('src/a.ts');
    expect((await resolveInside(root, 'src/new/dir/file.txt')).relative).toBe('src/new/dir/file.txt');
    expect((await resolveInside(root, '.')).relative).toBe('.');
    expect((await resolveInside(root, 'src/../src/a.ts')).relative).toBe('src/a.ts');
  });

  it('refuses `..` escapes, other absolute paths and NUL bytes', async () => {
    await expect(resolveInside(root, '../outside.txt')).rejects.toThrow(/leaves the workspace/);
    await expect(resolveInside(root, '/workspace/../outside.txt')).rejects.toThrow(/under \/workspace/);
    await expect(resolveInside(root, '/etc/passwd')).rejects.toThrow(/under \/workspace/);
    await expect(resolveInside(root, 'a\0b')).rejects.toThrow(/NUL/);
  });

  it('refuses symlinks that lead outside, through files or directories, and dangling ones', async () => {
    await expect(resolveInside(root, 'out-link')).rejects.toThrow(/through a symlink/);
    await expect(resolveInside(root, 'dir-link/outside.txt')).rejects.toThrow(/through a symlink/);
    await expect(resolveInside(root, 'dir-link/new-file')).rejects.toThrow(/through a symlink/);
    await expect(resolveInside(root, 'dangling')).rejects.toThrow(/dangling symlink/);
  });
});
