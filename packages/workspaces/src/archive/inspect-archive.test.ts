import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { create } from 'tar';
import { describe, expect, it } from 'vitest';
import { AppError } from '@looplane/shared';
import { craftedTar, systemTar, withTempDir, writeTree, zipOf } from '../testing/archive-fixtures';
import { inspectArchive } from './inspect-archive';

const limits = { filename: 'upload.tar', maxUnpackedBytes: 1024 * 1024, maxFiles: 100 };
const TWO_GB = 2 * 1024 ** 3;

/** A 2 GB file that is all hole (`truncate -s 2G`): no disk used. */
function makeSparse(path: string): void {
  writeFileSync(path, '');
  truncateSync(path, TWO_GB);
}

/** The refusal of `bytes` under `options`: an AppError BAD_REQUEST whose message matches. */
async function refusal(bytes: Buffer, message: RegExp, options: Partial<typeof limits> = {}): Promise<void> {
  const error = await inspectArchive(bytes, { ...limits, ...options }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected a refusal matching ${message}`).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('BAD_REQUEST');
  expect((error as AppError).message).toMatch(message);
}

const tree = {
  'README.md': '# hello\n',
  'src/app.ts': 'export const x = 1;\n',
  'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  'docs/empty': { dir: true } as const,
  'src/link.ts': { symlink: 'app.ts' },
  'lib/up.ts': { symlink: '../src/app.ts' },
  'src/copy.ts': { hardlink: 'src/app.ts' },
  '.git/HEAD': 'ref: refs/heads/main\n',
};

describe('inspectArchive: what it accepts', () => {
  it('reads a tar by GNU tar (./ root, in-tree links, a hard link, .git) and counts every entry and byte', async () => {
    const summary = await inspectArchive(systemTar(tree), limits);
    // Files 4 + the hard link's copy, links 2, directories src bin docs docs/empty lib .git.
    expect(summary).toEqual({ format: 'tar', files: 13, unpackedBytes: 8 + 20 + 18 + 20 + 21 });
  });

  it('tells tar.gz and zip by their bytes, not their names, and reads pax long names', async () => {
    const long = `${'d'.repeat(120)}/${'f'.repeat(150)}.txt`;
    expect(await inspectArchive(systemTar({ [long]: 'x' }, ['-z', '--format=pax']), { ...limits, filename: 'archive.zip' })).toEqual({
      format: 'tar.gz',
      files: 2,
      unpackedBytes: 1,
    });
    const zip = await zipOf([
      { name: 'a/b.txt', content: 'hello' },
      { name: 'a/run', content: '#!', mode: 0o100755 },
      { name: 'l', symlink: 'a/b.txt' },
    ]);
    expect(await inspectArchive(zip, { ...limits, filename: 'code.tar.gz' })).toEqual({ format: 'zip', files: 4, unpackedBytes: 7 });
  });

  it('reads a tar.gz written by node-tar (npm’s tar) as well as GNU tar’s', async () => {
    const bytes = await withTempDir(async (dir) => {
      writeTree(dir, tree);
      const chunks: Buffer[] = [];
      for await (const chunk of create({ gzip: true, cwd: dir, portable: true }, ['.']) as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks);
    });
    expect(await inspectArchive(bytes, limits)).toEqual({ format: 'tar.gz', files: 13, unpackedBytes: 8 + 20 + 18 + 20 + 21 });
  });

  it('takes an archive exactly at its limits', async () => {
    const bytes = systemTar({ a: 'x'.repeat(600), b: 'y'.repeat(400) });
    expect(await inspectArchive(bytes, { ...limits, maxUnpackedBytes: 1000, maxFiles: 2 })).toMatchObject({ files: 2, unpackedBytes: 1000 });
  });
});

describe('inspectArchive: what it refuses, naming the entry', () => {
  it('a name with ..', async () => {
    await refusal(craftedTar([{ name: '../x', content: 'x' }]), /^"upload\.tar" is refused: entry "\.\.\/x" has a "\.\." segment$/);
    await refusal(craftedTar([{ name: 'a/../../x', content: 'x' }]), /entry "a\/\.\.\/\.\.\/x" has a "\.\." segment/);
    await refusal(await zipOf([{ name: '../evil.sh', content: 'x' }]), /entry "\.\.\/evil\.sh" has a "\.\." segment/);
  });

  it('an absolute path or a drive letter', async () => {
    await refusal(craftedTar([{ name: '/etc/x', content: 'x' }]), /entry "\/etc\/x" is an absolute path/);
    await refusal(await zipOf([{ name: '/etc/cron.d/x', content: 'x' }]), /entry "\/etc\/cron\.d\/x" is an absolute path/);
    await refusal(await zipOf([{ name: 'C:/x', content: 'x' }]), /starts with a drive letter/);
  });

  it('a backslash, NUL or control character in a name', async () => {
    await refusal(craftedTar([{ name: '..\\..\\x', content: 'x' }]), /has a backslash in its name/);
    await refusal(await zipOf([{ name: 'a\\..\\..\\x', content: 'x' }]), /has a backslash in its name/);
    await refusal(await zipOf([{ name: 'a\u0000b', content: 'x' }]), /entry "a\\u0000b" has NUL or a control character/);
    await refusal(craftedTar([{ name: 'new\nline', content: 'x' }]), /entry "new\\nline" has NUL or a control character/);
  });

  it('a symbolic link out of the tree: absolute, climbing past the root, or climbing after a name', async () => {
    await refusal(systemTar({ 'etc-passwd': { symlink: '/etc/passwd' } }), /entry "etc-passwd" is a symbolic link to the absolute path "\/etc\/passwd"/);
    await refusal(systemTar({ 'a/up': { symlink: '../../x' } }), /entry "a\/up" is a symbolic link that points outside the archive: "\.\.\/\.\.\/x"/);
    await refusal(
      systemTar({ 'a/b/l': { symlink: 'c/../../../..' } }),
      /entry "a\/b\/l" is a symbolic link whose target climbs \(\.\.\) after naming a directory/,
    );
    await refusal(await zipOf([{ name: 'passwd', symlink: '/etc/passwd' }]), /entry "passwd" is a symbolic link to the absolute path/);
  });

  it('a hard link out of the tree or to no earlier file', async () => {
    await refusal(
      craftedTar([{ name: 'x', type: '1', linkName: '../../etc/shadow' }]),
      /entry "x" is a hard link to "\.\.\/\.\.\/etc\/shadow", which is not a file earlier/,
    );
    await refusal(
      craftedTar([
        { name: 'x', type: '1', linkName: 'later' },
        { name: 'later', content: 'y' },
      ]),
      /entry "x" is a hard link to "later"/,
    );
    await refusal(
      craftedTar([
        { name: 'd', type: '5' },
        { name: 'x', type: '1', linkName: 'd' },
      ]),
      /entry "x" is a hard link to "d"/,
    );
  });

  it('devices, FIFOs and sockets', async () => {
    await refusal(craftedTar([{ name: 'tty', type: '3' }]), /entry "tty" is a character device/);
    await refusal(craftedTar([{ name: 'sda', type: '4' }]), /entry "sda" is a block device/);
    await refusal(
      systemTar({}, [], (dir) => execFileSync('mkfifo', [`${dir}/pipe`])),
      /entry "pipe" is a FIFO/,
    );
    await refusal(await zipOf([{ name: 'sock', content: '', mode: 0o140644 }]), /entry "sock" is a socket/);
  });

  it.runIf(process.getuid?.() === 0)('a device node made by mknod and archived by GNU tar', async () => {
    await refusal(
      systemTar({}, [], (dir) => execFileSync('mknod', [`${dir}/null`, 'c', '1', '3'])),
      /entry "null" is a character device/,
    );
  });

  it('a 2 GB sparse file, by its declared size, without reading 2 GB (GNU and pax sparse formats)', async () => {
    const sparse = (args: string[]) => systemTar({}, ['-S', ...args], (dir) => makeSparse(`${dir}/big`));
    const started = Date.now();
    for (const format of ['--format=gnu', '--format=pax']) {
      await refusal(sparse([format]), new RegExp(`entry "big" is a sparse file declaring ${TWO_GB} bytes; sparse files are refused`));
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a file declaring more than the cap, refused at its header (the bytes are not even there)', async () => {
    await refusal(
      craftedTar([{ name: 'huge', size: TWO_GB }], { end: false }),
      new RegExp(`entry "huge" declares ${TWO_GB} bytes, which takes the unpacked size over the limit of 1048576 bytes`),
    );
  });

  it('files that together pass the cap, and more entries than the limit (implied directories count)', async () => {
    await refusal(systemTar({ a: 'x'.repeat(600), b: 'y'.repeat(600) }), /declares 600 bytes, which takes the unpacked size over the limit of 1000 bytes/, {
      maxUnpackedBytes: 1000,
    });
    await refusal(systemTar({ a: '1', b: '2', c: '3' }), /takes the archive over the limit of 2 entries/, { maxFiles: 2 });
    await refusal(craftedTar([{ name: 'a/b/c/d', content: 'x' }]), /entry "a\/b\/c\/d" takes the archive over the limit of 3 entries/, { maxFiles: 3 });
  });

  it('a path that turns a file into a directory, a directory into a file, or is given twice', async () => {
    await refusal(
      craftedTar([
        { name: 'a', content: 'x' },
        { name: 'a/b', content: 'y' },
      ]),
      /entry "a\/b" is inside "a", which is a file/,
    );
    await refusal(
      craftedTar([
        { name: 'a/b', content: 'y' },
        { name: 'a', content: 'x' },
      ]),
      /entry "a" appears twice \(a directory, then a file\)/,
    );
    await refusal(
      craftedTar([
        { name: 'a', content: 'x' },
        { name: './a', content: 'y' },
      ]),
      /entry "a" appears twice \(a file, then a file\)/,
    );
  });

  it('an entry below a symbolic link (it would be written through the link)', async () => {
    await refusal(
      craftedTar([
        { name: 'l', type: '2', linkName: 'sub' },
        { name: 'l/x', content: 'x' },
      ]),
      /entry "l\/x" is inside "l", which is a symbolic link/,
    );
    await refusal(
      craftedTar([
        { name: 'l', type: '2', linkName: '.' },
        { name: 'l', type: '5' },
      ]),
      /entry "l" appears twice \(a symbolic link, then a directory\)/,
    );
  });

  it('a zip bomb: by its declared size, and by what it really inflates to when its headers lie', async () => {
    const zeros = Buffer.alloc(5 * 1024 * 1024);
    await refusal(await zipOf([{ name: 'zeros', content: zeros }]), /entry "zeros" declares 5242880 bytes/);
    // The same archive claiming 1000 bytes in both headers: inflating stops as soon as it passes that.
    const lying = await zipOf([{ name: 'zeros', content: zeros }]);
    const sizeOf = (at: number) => lying.writeUInt32LE(1000, at);
    sizeOf(22); // local header: uncompressed size
    sizeOf(lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24); // central directory
    await refusal(lying, /cannot be read as zip: .*bytes/);
  });

  it('a tar.gz whose tar data lies or ends early, a gzip without a tar, and what is no archive', async () => {
    await refusal(
      gzipSync(craftedTar([{ name: 'a', size: 4000, content: 'short' }], { end: false })),
      /cannot be read as tar\.gz: it ends in the middle of an entry/,
    );
    await refusal(gzipSync(Buffer.from('just text, gzipped\n'.repeat(100))), /cannot be read as tar\.gz: it does not hold a tar archive/);
    await refusal(Buffer.from('plain text'), /is not a \.tar, \.tar\.gz \(\.tgz\) or \.zip archive/);
    const damaged = craftedTar([{ name: 'a', content: 'x' }]);
    damaged[0] = 0x62;
    await refusal(damaged, /cannot be read as tar: a header checksum does not match/);
  });
});
