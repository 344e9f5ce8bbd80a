/** The kinds of entry an archive may hold and a tree may get. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink';

/**
 * One entry as a format's reader found it, before any rule: its name as written, its kind (or
 * why the kind is refused: a device, a FIFO, a sparse file, …), its declared size and mode.
 */
export interface RawEntry {
  name: string;
  kind: EntryKind | { refused: string };
  /** Bytes of content it declares (a file's size; 0 for anything else). */
  size: number;
  /** Permission bits as written (only the execute bits are kept). */
  mode: number;
  /** A symbolic link's target as written, or the archive path a hard link names; null otherwise. */
  linkTarget: string | null;
  /**
   * A file's content, read from the archive as it is iterated, at most once and before the next
   * entry is asked for; an entry left unread is skipped.
   */
  content(): AsyncIterable<Buffer>;
}

/** An entry that passed the rules, with its path inside the tree. */
export interface AdmittedEntry {
  path: string;
  kind: EntryKind;
  /** Bytes it unpacks to: a file's size, the linked file's for a hard link, 0 otherwise. */
  size: number;
  /** Whether a file is written 0755 (any execute bit was set) rather than 0644. */
  executable: boolean;
  /** A symbolic link's target as written; a hard link's file, as a path of the tree; null otherwise. */
  target: string | null;
}
