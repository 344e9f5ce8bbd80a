import type { EntryKind, RawEntry } from './archive-entry';
import type { ByteReader } from './byte-reader';
import { BLOCK, hasTarMagic, isZeroBlock, padding, parseTarHeader, textField, type TarHeader } from './tar-header';

/** The largest pax or GNU long-name header read (real ones are a few hundred bytes). */
const MAX_META_BYTES = 1024 * 1024;

/** What pax (`x`) and GNU long-name (`L`, `K`) headers say about the entry that follows them. */
interface Pending {
  path?: string;
  linkPath?: string;
  size?: number;
  /** Set when a pax header describes a GNU sparse file: its name and real size, as declared. */
  sparse?: { name: string | undefined; size: number | undefined };
}

const KINDS: Record<string, EntryKind | { refused: string }> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '5': 'directory',
  '3': { refused: 'is a character device' },
  '4': { refused: 'is a block device' },
  '6': { refused: 'is a FIFO (named pipe)' },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The records of a pax header (`<length> <key>=<value>\n`, length in bytes, the record included):
 * the keys that change an entry's path, link or size, and any GNU sparse key. Times, owners and
 * the rest are not kept, so they are not read.
 */
function parsePax(data: Buffer, into: Pending): void {
  for (let at = 0; at < data.length; ) {
    const space = data.indexOf(0x20, at);
    const length = space < 0 ? Number.NaN : Number(data.subarray(at, space).toString('latin1'));
    if (!Number.isSafeInteger(length) || length <= space - at + 1 || at + length > data.length || data[at + length - 1] !== 0x0a) {
      throw new Error('a pax header is malformed');
    }
    let record: string;
    try {
      record = utf8.decode(data.subarray(space + 1, at + length - 1));
    } catch {
      throw new Error('a pax header is not UTF-8 text');
    }
    at += length;
    const equals = record.indexOf('=');
    if (equals < 0) throw new Error('a pax header is malformed');
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === 'path') into.path = value;
    else if (key === 'linkpath') into.linkPath = value;
    else if (key === 'size') {
      if (!/^\d+$/.test(value)) throw new Error('a pax header has a malformed size');
      into.size = Number(value);
    } else if (key.startsWith('GNU.sparse.')) {
      into.sparse ??= { name: undefined, size: undefined };
      if (key === 'GNU.sparse.name') into.sparse.name = value;
      if ((key === 'GNU.sparse.realsize' || key === 'GNU.sparse.size') && /^\d+$/.test(value)) into.sparse.size = Number(value);
    }
  }
}

/** A meta header's data (pax, long name), bounded. */
async function metaData(reader: ByteReader, header: TarHeader): Promise<Buffer> {
  if (header.size > MAX_META_BYTES) throw new Error(`an extended header is larger than ${MAX_META_BYTES} bytes`);
  const data = (await reader.take(header.size)) ?? Buffer.alloc(0);
  if (data.length < header.size) throw new Error('it ends in the middle of an entry');
  await reader.skip(padding(header.size));
  return data;
}

const sparseRefusal = (size: number | undefined) => ({
  refused: `is a sparse file${size === undefined ? '' : ` declaring ${size} bytes`}; sparse files are refused`,
});

/**
 * The entries of a tar stream, in order, with every kind the format has (links, devices, sparse
 * files) reported as it is, for the rules to judge. Strict: a bad checksum or field, a truncated
 * entry, a type it does not know or a global header that renames entries throws rather than
 * being skipped, so what is inspected is exactly what is extracted. Reading stops at the first
 * zero block: nothing after the end of the archive is decompressed.
 */
export async function* tarEntries(reader: ByteReader): AsyncGenerator<RawEntry> {
  let pending: Pending = {};
  for (let first = true; ; first = false) {
    const block = await reader.take(BLOCK);
    if (block === null || isZeroBlock(block)) return;
    // Inside gzip the tar is known only now: anything else (another gzip, a zip) is not read on.
    if (first && !hasTarMagic(block)) throw new Error('it does not hold a tar archive');
    const header = parseTarHeader(block);
    if (header.type === 'x' || header.type === 'X') {
      parsePax(await metaData(reader, header), pending);
      continue;
    }
    if (header.type === 'g') {
      const global: Pending = {};
      parsePax(await metaData(reader, header), global);
      if (global.path !== undefined || global.linkPath !== undefined || global.size !== undefined || global.sparse) {
        throw new Error('a global pax header sets a path, link or size for every entry');
      }
      continue;
    }
    if (header.type === 'L' || header.type === 'K') {
      const value = textField(await metaData(reader, header));
      if (header.type === 'L') pending.path = value;
      else pending.linkPath = value;
      continue;
    }

    const name = pending.path ?? header.name;
    const size = pending.size ?? header.size;
    let kind = KINDS[header.type] ?? { refused: `has the tar entry type ${JSON.stringify(header.type)}, which is not supported` };
    if (header.type === 'S') kind = sparseRefusal(header.sparseSize);
    if (pending.sparse) kind = sparseRefusal(pending.sparse.size);
    // Old tars marked a directory as a file whose name ends in a slash.
    if (kind === 'file' && header.type !== '7' && name.endsWith('/')) kind = 'directory';
    let remaining = size;
    yield {
      name: pending.sparse?.name ?? name,
      kind,
      size,
      mode: header.mode,
      linkTarget: kind === 'symlink' || kind === 'hardlink' ? (pending.linkPath ?? header.linkName) : null,
      async *content() {
        while (remaining > 0) {
          const chunk = await reader.next(remaining);
          remaining -= chunk.length;
          yield chunk;
        }
      },
    };
    await reader.skip(remaining + padding(size));
    pending = {};
  }
}
