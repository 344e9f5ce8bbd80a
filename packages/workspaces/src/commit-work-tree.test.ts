import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorkTree } from './commit-work-tree';
import { git, type GitOptions } from './git';

let dir: string;
let options: GitOptions & { workTree: string };

/** git as a program in the work tree would run it (its own repository, none of the worker's settings). */
function userGit(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd } });
}

async function stored(commit: string): Promise<string[]> {
  return (await git(['ls-tree', '-r', '--name-only', '-z', commit], options)).stdout.split('\0').filter(Boolean).sort();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'commit-work-tree-'));
  options = { gitDir: join(dir, 'git'), workTree: join(dir, 'work') };
  await mkdir(options.workTree, { recursive: true });
  await git(['init', '-q', '-b', 'main'], options);
  await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'created'], options);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('commitWorkTree', () => {
  it('commits files and says when nothing changed', async () => {
    await writeFile(join(options.workTree, 'a.txt'), 'a');
    const first = await commitWorkTree(options, 'one');
    expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(first.refused).toEqual([]);
    expect(await commitWorkTree(options, 'two')).toEqual({ base: first.commit, commit: null, refused: [] });
  });

  it('removes a FIFO instead of failing, also one that replaced a committed file, and names it', async () => {
    await writeFile(join(options.workTree, 'victim.txt'), 'content');
    await commitWorkTree(options, 'victim');
    await unlink(join(options.workTree, 'victim.txt'));
    execFileSync('mkfifo', [join(options.workTree, 'victim.txt'), join(options.workTree, 'p')]);
    const result = await commitWorkTree(options, 'fifo');
    expect(result.refused.map((r) => r.path).sort()).toEqual(['p', 'victim.txt']);
    expect(result.refused[0]?.reason).toMatch(/FIFO/);
    expect(result.commit).not.toBeNull();
    expect(await stored(result.commit as string)).toEqual([]);
    expect(existsSync(join(options.workTree, 'p'))).toBe(false);
  });

  it('removes names git reserves (.GIT, .git. and a nested .git file) instead of failing', async () => {
    await mkdir(join(options.workTree, '.GIT'));
    await writeFile(join(options.workTree, '.GIT', 'x'), 'x');
    await mkdir(join(options.workTree, 'sub'));
    await writeFile(join(options.workTree, 'sub', '.git'), 'gitdir: /etc\n');
    await writeFile(join(options.workTree, 'sub', 'keep.txt'), 'k');
    const result = await commitWorkTree(options, 'reserved');
    expect(result.refused.map((r) => r.path).sort()).toEqual(['.GIT', 'sub/.git']);
    expect(await stored(result.commit as string)).toEqual(['sub/keep.txt']);
  });

  it('stores the files of a nested repository as ordinary files, with or without commits, and keeps its .git here', async () => {
    const nested = join(options.workTree, 'vendor', 'lib');
    await mkdir(nested, { recursive: true });
    userGit(nested, 'init', '-q');
    await writeFile(join(nested, 'lib.js'), 'lib');
    userGit(nested, 'add', '.');
    userGit(nested, 'commit', '-q', '-m', 'lib');
    const empty = join(options.workTree, 'empty-repo');
    await mkdir(empty);
    userGit(empty, 'init', '-q');
    await writeFile(join(options.workTree, 'top.txt'), 't');
    const result = await commitWorkTree(options, 'nested');
    expect(result.refused).toEqual([]);
    expect(await stored(result.commit as string)).toEqual(['top.txt', 'vendor/lib/lib.js']);
    await writeFile(join(nested, 'more.js'), 'more');
    const next = await commitWorkTree(options, 'more');
    expect(await stored(next.commit as string)).toEqual(['top.txt', 'vendor/lib/lib.js', 'vendor/lib/more.js']);
    expect(existsSync(join(nested, '.git', 'HEAD'))).toBe(true);
  });

  it('stores bytes exactly, whatever .gitattributes and .gitignore the tree holds', async () => {
    await writeFile(join(options.workTree, '.gitattributes'), '* ident text eol=crlf\n');
    await writeFile(join(options.workTree, '.gitignore'), '*\n');
    await writeFile(join(options.workTree, 'f.txt'), 'a $Id$ b\nline\n');
    const result = await commitWorkTree(options, 'attributes');
    expect((await git(['cat-file', 'blob', `${result.commit}:f.txt`], options)).stdout).toBe('a $Id$ b\nline\n');
    await unlink(join(options.workTree, 'f.txt'));
    await git(['reset', '-q', '--hard', result.commit as string], options);
    expect(await readFile(join(options.workTree, 'f.txt'), 'utf8')).toBe('a $Id$ b\nline\n');
  });
});
