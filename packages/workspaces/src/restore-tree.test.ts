import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorkTree } from './commit-work-tree';
import { git, gitBytes, type GitOptions } from './git';
import { restoredCommit } from './restore-tree';

let dir: string;
let options: GitOptions & { workTree: string };

/** Every path of a commit with its bytes (links as their target), sorted. */
async function files(commit: string): Promise<Record<string, string>> {
  const names = (await git(['ls-tree', '-r', '--name-only', '-z', commit], options)).stdout.split('\0').filter(Boolean);
  const out: Record<string, string> = {};
  for (const name of names.sort()) out[name] = (await gitBytes(['cat-file', 'blob', `${commit}:${name}`], options)).stdout.toString('utf8');
  return out;
}

/** Writes `tree` (path → content; null removes) into the work tree and commits it. */
async function step(tree: Record<string, string | null>): Promise<string> {
  for (const [path, content] of Object.entries(tree)) {
    const at = join(options.workTree, path);
    if (content === null) await rm(at, { recursive: true, force: true });
    else {
      await mkdir(join(at, '..'), { recursive: true });
      await writeFile(at, content);
    }
  }
  const { commit, base } = await commitWorkTree(options, 'step');
  return commit ?? base;
}

const head = async () => (await git(['rev-parse', 'HEAD'], options)).stdout.trim();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'restore-tree-'));
  options = { gitDir: join(dir, 'git'), workTree: join(dir, 'work') };
  await mkdir(options.workTree, { recursive: true });
  await git(['init', '-q', '-b', 'main'], options);
  await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'created'], options);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('restoredCommit', () => {
  it('puts the whole tree back as it was at a source commit, on top of head, leaving the work tree alone', async () => {
    const early = await step({ 'a.txt': 'a1', 'src/b.ts': 'b1' });
    const now = await step({ 'a.txt': 'a2', 'src/b.ts': null, 'src/c.ts': 'c2', 'new.md': 'n' });
    const commit = await restoredCommit(options, { head: now, source: early, paths: null, message: 'restore' });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await files(commit!)).toEqual({ 'a.txt': 'a1', 'src/b.ts': 'b1' });
    expect((await git(['rev-parse', `${commit}^`], options)).stdout.trim()).toBe(now);
    // Plumbing only: HEAD and the work tree are where they were.
    expect(await head()).toBe(now);
    expect((await git(['status', '--porcelain'], options)).stdout).toBe('');
  });

  it('restores only the named paths: a file, a directory (files added since are removed), a path that did not exist then', async () => {
    const early = await step({ 'a.txt': 'a1', 'keep.txt': 'k1', 'src/b.ts': 'b1', 'src/deep/d.ts': 'd1' });
    const now = await step({ 'a.txt': 'a2', 'keep.txt': 'k2', 'src/b.ts': 'b2', 'src/deep/d.ts': null, 'src/extra.ts': 'x', 'later.txt': 'l' });
    const commit = await restoredCommit(options, { head: now, source: early, paths: ['a.txt', 'src', 'later.txt'], message: 'restore' });
    expect(await files(commit!)).toEqual({ 'a.txt': 'a1', 'keep.txt': 'k2', 'src/b.ts': 'b1', 'src/deep/d.ts': 'd1' });
    // A name that only starts like a restored path is not covered by it.
    const other = await step({ 'srcx/y.txt': 'y' });
    const again = await restoredCommit(options, { head: other, source: early, paths: ['src'], message: 'restore' });
    expect(Object.keys(await files(again!)).filter((p) => p.startsWith('src'))).toEqual(['src/b.ts', 'src/deep/d.ts', 'srcx/y.txt']);
    // Nothing to change: null, not an empty commit.
    expect(await restoredCommit(options, { head: again!, source: early, paths: ['src'], message: 'restore' })).toBeNull();
  });

  it('restores to the empty workspace (no source), whole or by path, and keeps links as links', async () => {
    await symlink('/etc/passwd', join(options.workTree, 'link'));
    const now = await step({ 'a.txt': 'a' });
    expect(await files((await restoredCommit(options, { head: now, source: null, paths: null, message: 'empty' }))!)).toEqual({});
    const partial = await restoredCommit(options, { head: now, source: null, paths: ['a.txt'], message: 'drop a' });
    expect(await files(partial!)).toEqual({ link: '/etc/passwd' });
    expect((await git(['ls-tree', partial!, 'link'], options)).stdout).toMatch(/^120000 blob /);
  });

  it('matches paths literally: a name with pathspec magic restores that name only', async () => {
    const early = await step({ '*.txt': 'star1', 'a.txt': 'a1' });
    const now = await step({ '*.txt': 'star2', 'a.txt': 'a2' });
    const commit = await restoredCommit(options, { head: now, source: early, paths: ['*.txt'], message: 'restore' });
    expect(await files(commit!)).toEqual({ '*.txt': 'star1', 'a.txt': 'a2' });
  });
});
