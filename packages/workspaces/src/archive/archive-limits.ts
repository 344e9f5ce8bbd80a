import { AppError } from '@looplane/shared';

/** The formats an archive is read as, told apart by its first bytes (never by its file name). */
export type ArchiveFormat = 'tar' | 'tar.gz' | 'zip';

/** What an archive may unpack to. */
export interface ArchiveLimits {
  /** The most bytes its files may hold unpacked, as declared and as read (a hard link's copy counts again). */
  maxUnpackedBytes: number;
  /** The most entries of the tree it unpacks to: files, directories (named or implied by a path) and links. */
  maxFiles: number;
}

export interface ArchiveOptions extends ArchiveLimits {
  /** The name it was uploaded as: for messages only. */
  filename?: string | undefined;
}

/** What an archive holds, as {@link inspectArchive} found it. */
export interface ArchiveSummary {
  format: ArchiveFormat;
  /** Entries of the tree: files, directories (named or implied) and links, the root excepted. */
  files: number;
  /** Bytes of its files, unpacked. */
  unpackedBytes: number;
}

/** The archive's name as messages show it. */
function archiveName(options: { filename?: string | undefined }): string {
  return options.filename ? JSON.stringify(options.filename) : 'the archive';
}

/**
 * The refusal of an archive, a 4xx the caller sees verbatim: it names the archive and, where one is
 * to blame, the first entry that is refused (quoted, so control characters show).
 */
export function archiveRefused(options: { filename?: string | undefined }, message: string, entry?: string): AppError {
  const where = entry === undefined ? '' : `entry ${JSON.stringify(entry)} `;
  return new AppError('BAD_REQUEST', `${archiveName(options)} is refused: ${where}${message}`);
}
