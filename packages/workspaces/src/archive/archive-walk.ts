import { createGunzip } from 'node:zlib';
import { AppError } from '@looplane/shared';
import type { AdmittedEntry } from './archive-entry';
import { archiveRefused, type ArchiveFormat, type ArchiveOptions, type ArchiveSummary } from './archive-limits';
import { EntryRules } from './archive-rules';
import { ByteReader, slices } from './byte-reader';
import { BLOCK, hasTarMagic } from './tar-header';
import { tarEntries } from './tar-reader';
import { zipEntries } from './zip-reader';

/** An admitted entry and its content (a file's bytes, counted against the limits as they are read). */
export interface WalkedEntry extends AdmittedEntry {
  content(): AsyncIterable<Buffer>;
}

/** Per entry of the limit, what a tar stream may hold besides file content: headers, pax records, padding. */
const TAR_OVERHEAD_PER_ENTRY = 4 * BLOCK;

/** The format of an archive by its first bytes: gzip's magic, a zip's first local header (or the end record of an empty zip), tar's `ustar`. */
function formatOf(bytes: Buffer): ArchiveFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08) return 'tar.gz';
  const signature = bytes.length >= 4 ? bytes.readUInt32LE(0) : 0;
  if (signature === 0x04034b50 || signature === 0x06054b50) return 'zip';
  if (hasTarMagic(bytes)) return 'tar';
  return null;
}

/**
 * The decompressed bytes of a gzip stream, stopped (and the inflater freed) once they pass `cap`:
 * a bomb costs at most that much inflating, whatever its headers say.
 */
async function* gunzipped(bytes: Buffer, cap: number, over: () => Error): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  gunzip.end(bytes);
  let total = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > cap) throw over();
      yield chunk;
    }
  } finally {
    gunzip.destroy();
  }
}

/**
 * Iterates `source`, turning what its reader throws (a damaged stream, a zip library's error)
 * into the archive's refusal; errors of the caller's own work pass through untouched.
 */
async function* guarded<T>(source: AsyncIterable<T>, damaged: (error: unknown) => AppError): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let step: IteratorResult<T>;
      try {
        step = await iterator.next();
      } catch (error) {
        throw damaged(error);
      }
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * Reads an archive entry by entry, each checked by {@link EntryRules} before `visit` sees it, and
 * each file's content counted as `visit` reads it. The format comes from the bytes alone. Any
 * refusal is an AppError (BAD_REQUEST) naming the archive and the first bad entry; it stops the
 * walk at once, so nothing after it is read or decompressed.
 */
export async function walkArchive(bytes: Buffer, options: ArchiveOptions, visit: (entry: WalkedEntry) => Promise<void>): Promise<ArchiveSummary> {
  const format = formatOf(bytes);
  if (format === null) throw archiveRefused(options, 'is not a .tar, .tar.gz (.tgz) or .zip archive (told by its first bytes, not its name)');
  const damaged = (error: unknown) =>
    error instanceof AppError ? error : archiveRefused(options, `cannot be read as ${format}: ${error instanceof Error ? error.message : String(error)}`);
  const streamCap = options.maxUnpackedBytes + (options.maxFiles + 1) * TAR_OVERHEAD_PER_ENTRY;
  const overCap = () => archiveRefused(options, `decompresses to more than ${streamCap} bytes (its files may hold at most ${options.maxUnpackedBytes})`);
  const entries = format === 'zip' ? zipEntries(bytes) : tarEntries(new ByteReader(format === 'tar' ? slices(bytes) : gunzipped(bytes, streamCap, overCap)));
  const rules = new EntryRules(options);
  for await (const raw of guarded(entries, damaged)) {
    const admitted = rules.admit(raw);
    if (admitted === null) continue;
    await visit({
      ...admitted,
      async *content() {
        for await (const chunk of guarded(raw.content(), damaged)) {
          rules.countRead(admitted.path, chunk.length);
          yield chunk;
        }
      },
    });
  }
  return { format, files: rules.files, unpackedBytes: rules.unpackedBytes };
}
