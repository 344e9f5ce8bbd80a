import type { ArchiveOptions, ArchiveSummary } from './archive-limits';
import { walkArchive } from './archive-walk';

/**
 * Reads a whole `.tar`, `.tar.gz`/`.tgz` or `.zip` archive (told apart by its first bytes) without
 * writing anything, and says what it holds, or throws an AppError (BAD_REQUEST) naming the first
 * entry refused: an absolute path, a `..`, a backslash or control character, a link that leaves
 * the tree, a device, FIFO or sparse file, a path given twice or below a file or link, more than
 * `maxFiles` entries, or more than `maxUnpackedBytes` bytes, declared (refused before reading
 * them) or really inflated (counted as it inflates, stopped at the cap). `.git` directories are
 * allowed here.
 */
export async function inspectArchive(bytes: Buffer, options: ArchiveOptions): Promise<ArchiveSummary> {
  return walkArchive(bytes, options, async (entry) => {
    // Reading the content is what counts a file's real bytes (and lets the zip reader check its size and CRC).
    for await (const _chunk of entry.content());
  });
}
