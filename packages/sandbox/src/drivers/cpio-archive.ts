/** One entry of an initramfs: a directory, a regular file (with its bytes) or a symlink. */
export type CpioEntry =
  | { kind: 'dir'; path: string; mode: number }
  | { kind: 'file'; path: string; mode: number; data: Buffer }
  | { kind: 'symlink'; path: string; target: string };

const TYPE_BITS = { dir: 0o040000, file: 0o100000, symlink: 0o120000 } as const;

/**
 * Writes a cpio archive in the "newc" format the Linux kernel unpacks as an initramfs: every
 * entry owned by root, no hard links, each header and body padded to four bytes, ended by the
 * `TRAILER!!!` entry. Paths are relative to the archive root (no leading slash).
 */
export function cpioArchive(entries: CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  let inode = 1;
  const push = (path: string, mode: number, body: Buffer) => {
    const name = Buffer.from(`${path}\0`, 'utf8');
    const fields = [inode++, mode, 0, 0, 1, 0, body.length, 0, 0, 0, 0, name.length, 0];
    const header = Buffer.from(`070701${fields.map((field) => field.toString(16).padStart(8, '0')).join('')}`, 'ascii');
    parts.push(header, name, padding(header.length + name.length), body, padding(body.length));
  };
  for (const entry of entries) {
    if (entry.path.startsWith('/') || entry.path.split('/').includes('..')) throw new Error(`cpio entry path must be relative: ${entry.path}`);
    if (entry.kind === 'dir') push(entry.path, TYPE_BITS.dir | (entry.mode & 0o7777), Buffer.alloc(0));
    else if (entry.kind === 'file') push(entry.path, TYPE_BITS.file | (entry.mode & 0o7777), entry.data);
    else push(entry.path, TYPE_BITS.symlink | 0o777, Buffer.from(entry.target, 'utf8'));
  }
  push('TRAILER!!!', 0, Buffer.alloc(0));
  return Buffer.concat(parts);
}

function padding(length: number): Buffer {
  return Buffer.alloc((4 - (length % 4)) % 4);
}
