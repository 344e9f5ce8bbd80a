import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { EntryKind, RawEntry } from './archive-entry';

/** The longest symbolic link target read from a zip (the link's content). */
const MAX_LINK_BYTES = 4096;
/** `versionMadeBy`'s high byte for Unix: only then do the external attributes hold a mode. */
const MADE_ON_UNIX = 3;

/** Unix file types (`st_mode & S_IFMT`). A Map, not an object: Biome's number-key fix misreads octal keys. */
const FILE_TYPES = new Map<number, EntryKind | { refused: string }>([
  [0o100000, 'file'],
  [0o040000, 'directory'],
  [0o120000, 'symlink'],
  [0o010000, { refused: 'is a FIFO (named pipe)' }],
  [0o020000, { refused: 'is a character device' }],
  [0o060000, { refused: 'is a block device' }],
  [0o140000, { refused: 'is a socket' }],
]);

const utf8 = new TextDecoder('utf-8', { fatal: true });

function open(bytes: Buffer): Promise<yauzl.ZipFile> {
  // Names are decoded here (not by yauzl, which would turn a backslash into a slash or fail
  // without naming the rule), and sizes are checked against what the data really inflates to.
  return yauzl.fromBufferPromise(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
}

/** The next entry of the central directory, or null at its end. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const settle = (done: () => void) => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
      done();
    };
    const onEntry = (entry: yauzl.Entry) => settle(() => resolve(entry));
    const onEnd = () => settle(() => resolve(null));
    const onError = (error: Error) => settle(() => reject(error));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** The kind an entry's mode and name give it: Unix file type bits when a Unix tool wrote them, else the trailing slash. */
function kindOf(entry: yauzl.Entry, name: string): EntryKind | { refused: string } {
  const mode = entry.versionMadeBy >> 8 === MADE_ON_UNIX ? entry.externalFileAttributes >>> 16 : 0;
  const typeBits = mode & 0o170000;
  const kind = typeBits === 0 ? 'file' : (FILE_TYPES.get(typeBits) ?? { refused: `has the unknown file type ${typeBits.toString(8)}` });
  return kind === 'file' && name.endsWith('/') ? 'directory' : kind;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      throw new Error(`a symbolic link's target is longer than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The entries of a zip archive in central directory order (what every unzip tool lists), with
 * their Unix kinds: a symbolic link's target is its content, read here (it is short). Refused as
 * kinds: encrypted entries and compression methods other than stored and deflate. A file's
 * content is inflated as it is read, and yauzl fails it once it passes its declared size.
 */
export async function* zipEntries(bytes: Buffer): AsyncGenerator<RawEntry> {
  const zip = await open(bytes);
  try {
    for (;;) {
      const entry = await nextEntry(zip);
      if (entry === null) return;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      let kind = kindOf(entry, name);
      if (entry.isEncrypted()) kind = { refused: 'is encrypted' };
      else if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        kind = { refused: `uses compression method ${entry.compressionMethod}; only stored and deflate are supported` };
      }
      const mode = entry.versionMadeBy >> 8 === MADE_ON_UNIX ? (entry.externalFileAttributes >>> 16) & 0o7777 : 0o644;
      let linkTarget: string | null = null;
      if (kind === 'symlink') {
        const target = await readAll(await zip.openReadStreamPromise(entry), MAX_LINK_BYTES);
        try {
          linkTarget = utf8.decode(target);
        } catch {
          throw new Error('a symbolic link’s target is not UTF-8 text');
        }
      }
      yield {
        name,
        kind,
        // A link's content is its target, read above; only a file's size is content to unpack.
        size: kind === 'symlink' ? 0 : entry.uncompressedSize,
        mode,
        linkTarget,
        async *content() {
          if (kind !== 'file') return;
          const stream = await zip.openReadStreamPromise(entry);
          try {
            yield* stream as AsyncIterable<Buffer>;
          } finally {
            stream.destroy();
          }
        },
      };
    }
  } finally {
    zip.close();
  }
}
