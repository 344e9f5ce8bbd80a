import { constants } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAt, resolveBeneath, workspaceRelative } from './beneath';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'beneath-'));
  root = join(base, 'work');
  await mkdir(join(root, 'src', 'deep'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'a');
  await writeFile(join(base, 'outside.txt'), 'secret');
  await symlink('a.ts', join(root, 'src', 'inner-link'));
  await symlink('/workspace/src/a.ts', join(root, 'abs-inner'));
  await symlink('../outside.txt', join(root, 'out-link'));
  await symlink(base, join(root, 'dir-link'));
  await symlink('src/deep/../..', join(root, 'up-link'));
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
});
afterAll(() => rm(base, { recursive: true, force: true }));

async function relativeOf(input: string, followLast = true): Promise<string> {
  const location = await resolveBeneath(root, input, { followLast });
  await location.close();
  return location.relative;
}

describe('resolveBeneath', () => {
  it('resolves relative and /workspace paths, following symlinks that stay beneath the root', async () => {
    expect(await relativeOf('src/a.ts')).toBe('src/a.ts');
    expect(await relativeOf('/workspace/src/a.ts')).toBe('src/a.ts');
    expect(await relativeOf('src/inner-link')).toBe('src/a.ts');
    expect(await relativeOf('abs-inner')).toBe('src/a.ts');
    expect(await relativeOf('src/../src/a.ts')).toBe('src/a.ts');
    expect(await relativeOf('.')).toBe('.');
    expect(await relativeOf('up-link/src/a.ts')).toBe('src/a.ts');
    expect(await relativeOf('src/inner-link', false)).toBe('src/inner-link');
  });

  it('refuses `..` above the root, other absolute paths, NUL bytes and links that leave', async () => {
    await expect(relativeOf('../outside.txt')).rejects.toThrow(/leaves the workspace/);
    await expect(relativeOf('src/../../outside.txt')).rejects.toThrow(/leaves the workspace/);
    await expect(relativeOf('/etc/passwd')).rejects.toThrow(/under \/workspace/);
    await expect(relativeOf('a\0b')).rejects.toThrow(/NUL/);
    await expect(relativeOf('out-link')).rejects.toThrow(/leaves the workspace/);
    await expect(relativeOf('dir-link/outside.txt')).rejects.toThrow(/outside the workspace/);
    await expect(relativeOf('loop-a')).rejects.toThrow(/too many symlinks/);
  });

  it('creates missing parents only when asked, and never through a link', async () => {
    await expect(relativeOf('new/dir/file.txt')).rejects.toThrow(/no such directory/);
    const location = await resolveBeneath(root, 'new/dir/file.txt', { followLast: true, createParents: { uid: process.getuid?.() ?? 0, gid: 0 } });
    const handle = await openAt(location, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    await handle?.writeFile('x');
    await handle?.close();
    await location.close();
    expect(await readFile(join(root, 'new/dir/file.txt'), 'utf8')).toBe('x');
    await expect(resolveBeneath(root, 'dir-link/made/x', { followLast: true, createParents: { uid: 0, gid: 0 } })).rejects.toThrow(/outside/);
  });

  it('opens a FIFO without blocking, for reading and for writing', async () => {
    const location = await resolveBeneath(root, 'pipe', { followLast: true });
    const reader = await openAt(location, constants.O_RDONLY);
    expect((await reader?.stat())?.isFIFO()).toBe(true);
    await reader?.close();
    await expect(openAt(location, constants.O_WRONLY)).rejects.toThrow(/not a regular file/);
    await location.close();
  });
});

describe('workspaceRelative', () => {
  it('normalises lexically and refuses climbing above the root', () => {
    expect(workspaceRelative('/workspace/src/../lib')).toBe('lib');
    expect(workspaceRelative('.')).toBe('.');
    expect(() => workspaceRelative('../x')).toThrow(/leaves the workspace/);
  });
});
