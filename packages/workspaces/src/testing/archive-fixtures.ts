import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import yazl from 'yazl';

/** One node of a tree for a fixture: a file's content (mode 0644 unless given), a directory, or a link. */
export type TreeNode = string | Buffer | { content: string | Buffer; mode: number } | { dir: true } | { symlink: string } | { hardlink: string };

/** Runs `use` on a fresh temporary directory, removed after (after its promise settles, for an async `use`). */
export function withTempDir<T>(use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'looplane-archive-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  let result: T;
  try {
    result = use(dir);
  } catch (error) {
    remove();
    throw error;
  }
  if (result instanceof Promise) return result.finally(remove) as T;
  remove();
  return result;
}

/** Writes `tree` under `root` (paths relative to it, parents made as needed). */
export function writeTree(root: string, tree: Record<string, TreeNode>): void {
  for (const [path, node] of Object.entries(tree)) {
    const at = join(root, path);
    mkdirSync(dirname(at), { recursive: true });
    if (typeof node === 'string' || Buffer.isBuffer(node)) writeFileSync(at, node, { mode: 0o644 });
    else if ('dir' in node) mkdirSync(at, { recursive: true });
    else if ('symlink' in node) symlinkSync(node.symlink, at);
    else if ('hardlink' in node) linkSync(join(root, node.hardlink), at);
    else {
      writeFileSync(at, node.content);
      chmodSync(at, node.mode);
    }
  }
}

/**
 * An archive made by the system's GNU tar from a tree: `tar <args> -C <dir> -cf - .` (add `-z` to
 * gzip it, `-S` for sparse files, `--format=pax`, …). `prepare` may add what `writeTree` cannot
 * (device nodes, FIFOs, a sparse file) to the directory first.
 */
export function systemTar(tree: Record<string, TreeNode>, args: string[] = [], prepare?: (dir: string) => void): Buffer {
  return withTempDir((dir) => {
    writeTree(dir, tree);
    prepare?.(dir);
    return execFileSync('tar', [...args, '-C', dir, '-cf', '-', '.'], { maxBuffer: 512 * 1024 * 1024 });
  });
}

/** One hand-written tar entry: any name, type flag and declared size, whatever the content. */
export interface CraftedTarEntry {
  name: string;
  /** The type flag (`0` file, `2` symlink, `3` character device, …); default `0`. */
  type?: string;
  mode?: number;
  linkName?: string;
  content?: Buffer | string;
  /** The size the header declares; default the content's length. */
  size?: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** A ustar header block with a correct checksum. */
function tarHeader(entry: CraftedTarEntry, size: number): Buffer {
  const block = Buffer.alloc(512);
  block.write(entry.name, 0, 100, 'utf8');
  block.write(octal(entry.mode ?? 0o644, 8), 100, 'latin1');
  block.write(octal(0, 8), 108, 'latin1');
  block.write(octal(0, 8), 116, 'latin1');
  block.write(octal(size, 12), 124, 'latin1');
  block.write(octal(0, 12), 136, 'latin1');
  block.write(entry.type ?? '0', 156, 'latin1');
  block.write(entry.linkName ?? '', 157, 100, 'utf8');
  block.write('ustar\u000000', 257, 'latin1');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}

/**
 * A tar written byte by byte, for entries no tool writes on purpose (`../x`, `/etc/x`, a device
 * made without privileges, a size that lies). Ends with the two zero blocks unless `end` is false.
 */
export function craftedTar(entries: CraftedTarEntry[], options: { end?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = Buffer.from(entry.content ?? '');
    parts.push(tarHeader(entry, entry.size ?? content.length), content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  if (options.end !== false) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** One zip entry for {@link zipOf}: any name (even one yazl refuses), a file, a directory or a symbolic link. */
export interface ZipFixtureEntry {
  name: string;
  content?: Buffer | string;
  /** Unix mode with its type bits (default a 0644 file, or 0755 directory). */
  mode?: number;
  directory?: boolean;
  symlink?: string;
  /** Store rather than deflate. */
  store?: boolean;
}

/**
 * Writes `names` over the entries' names, in order, in the central directory and in each entry's
 * local header (a name is outside the CRC, so the archive stays valid). Each new name has the
 * byte length of the one it replaces.
 */
function renameZipEntries(bytes: Buffer, names: string[]): void {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = bytes.readUInt32LE(end + 16);
  for (const name of names) {
    const length = bytes.readUInt16LE(at + 28);
    if (Buffer.byteLength(name) !== length) throw new Error(`renameZipEntries: ${name} is not ${length} bytes long`);
    bytes.write(name, at + 46, 'utf8');
    bytes.write(name, bytes.readUInt32LE(at + 42) + 30, 'utf8');
    at += 46 + length + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
}

/**
 * A zip archive made by yazl. yazl refuses names such as `../x`, so each entry is added under a
 * placeholder of the same length and the name is written into its local and central headers
 * afterwards (a name is outside the CRC, so the archive stays valid).
 */
export async function zipOf(entries: ZipFixtureEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const names = entries.map((entry) => (entry.directory ? `${entry.name.replace(/\/$/, '')}/` : entry.name));
  entries.forEach((entry, i) => {
    // A safe name of the same byte length (yazl refuses the bad ones), replaced afterwards; yazl
    // ends a directory's name with a slash itself.
    const length = Buffer.byteLength(names[i]!) - (entry.directory ? 1 : 0);
    const placeholder = `${i.toString(36)}${'_'.repeat(length)}`.slice(0, length);
    if (entry.directory) zip.addEmptyDirectory(placeholder, { mode: entry.mode ?? 0o040755 });
    else if (entry.symlink !== undefined) zip.addBuffer(Buffer.from(entry.symlink), placeholder, { mode: 0o120777 });
    else zip.addBuffer(Buffer.from(entry.content ?? ''), placeholder, { mode: entry.mode ?? 0o100644, compress: !entry.store });
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  renameZipEntries(bytes, names);
  return bytes;
}
