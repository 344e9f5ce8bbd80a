import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@looplane/shared';
import { craftedTar, withTempDir, writeTree, zipOf, type TreeNode } from '../testing/archive-fixtures';
import { extractArchive } from './extract-archive';

const limits = { filename: 'seed.tar.gz', maxUnpackedBytes: 16 * 1024 * 1024, maxFiles: 1000 };

/** Every path under `root` with what it is: a file's mode and bytes, a link's target, a directory's mode. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const name of readdirSync(join(root, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      const stat = lstatSync(join(root, path));
      const mode = (stat.mode & 0o777).toString(8);
      if (stat.isSymbolicLink()) out[path] = `link -> ${readlinkSync(join(root, path))}`;
      else if (stat.isDirectory()) {
        out[path] = `dir ${mode}`;
        walk(path);
      } else if (stat.isFile()) out[path] = `file ${mode} ${readFileSync(join(root, path)).toString('base64')}`;
      else out[path] = 'something else';
    }
  };
  walk('');
  return out;
}

const binary = randomBytes(300_000);
const tree: Record<string, TreeNode> = {
  'README.md': '# seed\n',
  'src/main.ts': 'console.log(1);\n',
  'src/data.bin': binary,
  'bin/build': { content: '#!/bin/sh\nexit 0\n', mode: 0o755 },
  'bin/odd': { content: 'group-exec only\n', mode: 0o610 },
  'docs/empty': { dir: true },
  'src/alias.ts': { symlink: 'main.ts' },
  'lib/up': { symlink: '../src' },
  '.git/config': '[core]\n',
};

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty directory, removed after the test. */
function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'looplane-extract-'));
  made.push(dir);
  return dir;
}

/** Extracts into a fresh empty directory and returns what it wrote and the tree it left. */
async function extracted(bytes: Buffer) {
  const dir = emptyDir();
  const result = await extractArchive(bytes, dir, limits);
  return { result, tree: snapshot(dir) };
}

describe('extractArchive', () => {
  it('unpacks a tar.gz by GNU tar byte for byte: files 0644/0755 (any execute bit), directories 0755, in-tree links as they were', async () => {
    await withTempDir(async (source) => {
      writeTree(source, tree);
      const bytes = execFileSync('tar', ['-z', '-C', source, '-cf', '-', '.']);
      const { result, tree: out } = await extracted(bytes);
      const expected = snapshot(source);
      // What the source had, with the modes the extraction sets.
      expected['bin/odd'] = expected['bin/odd']!.replace('file 610', 'file 755');
      for (const [path, value] of Object.entries(expected)) if (value.startsWith('dir ')) expected[path] = 'dir 755';
      expect(out).toEqual(expected);
      expect(result).toEqual({ files: Object.keys(expected).length, bytes: 7 + 16 + binary.length + 17 + 16 + 7 });
    });
  });

  it('unpacks a zip the same way, and a hard link as a copy of its file', async () => {
    const zip = await zipOf([
      { name: 'a/b.txt', content: 'hello' },
      { name: 'a/run', content: '#!/bin/sh\n', mode: 0o100755 },
      { name: 'a/link', symlink: 'b.txt' },
      { name: 'empty/', directory: true },
    ]);
    expect((await extracted(zip)).tree).toEqual({
      a: 'dir 755',
      'a/b.txt': `file 644 ${Buffer.from('hello').toString('base64')}`,
      'a/link': 'link -> b.txt',
      'a/run': `file 755 ${Buffer.from('#!/bin/sh\n').toString('base64')}`,
      empty: 'dir 755',
    });
    const tar = craftedTar([
      { name: 'f', content: 'same bytes', mode: 0o755 },
      { name: 'g', type: '1', linkName: 'f' },
    ]);
    const { result, tree: out } = await extracted(tar);
    expect(out).toEqual({ f: `file 755 ${Buffer.from('same bytes').toString('base64')}`, g: out.f });
    expect(result).toEqual({ files: 2, bytes: 20 });
  });

  it('writes nothing for a refused archive, even when the bad entry comes last', async () => {
    const dir = emptyDir();
    const bytes = craftedTar([
      { name: 'fine.txt', content: 'ok' },
      { name: 'l', type: '2', linkName: '/etc' },
    ]);
    const error = await extractArchive(bytes, dir, limits).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe('"seed.tar.gz" is refused: entry "l" is a symbolic link to the absolute path "/etc"');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('needs an existing empty directory, and never a link to one', async () => {
    await withTempDir(async (parent) => {
      const bytes = craftedTar([{ name: 'a', content: 'x' }]);
      writeFileSync(join(parent, 'taken'), 'x');
      await expect(extractArchive(bytes, parent, limits)).rejects.toThrow(/is not empty/);
      mkdirSync(join(parent, 'real'));
      symlinkSync(join(parent, 'real'), join(parent, 'via-link'));
      await expect(extractArchive(bytes, join(parent, 'via-link'), limits)).rejects.toThrow(/is not a directory/);
      expect(readdirSync(join(parent, 'real'))).toEqual([]);
    });
  });
});
