import type { AdmittedEntry, EntryKind, RawEntry } from './archive-entry';
import { archiveRefused, type ArchiveOptions } from './archive-limits';
import { archivePath, symlinkTarget } from './archive-path';

const KIND_NAMES: Record<EntryKind, string> = { file: 'file', directory: 'directory', symlink: 'symbolic link', hardlink: 'hard link' };

/**
 * The rules every entry of an archive passes, in archive order, and the tree they build. What
 * must stay true: an entry's parents are directories (never a file or a link, so nothing is
 * written through a link), no path is given twice except a directory, links stay inside the tree,
 * and neither the entries nor their declared bytes pass the limits; each refusal names the entry.
 */
export class EntryRules {
  /** Every path of the tree so far (directories implied by a deeper path included) and its kind. */
  private readonly tree = new Map<string, EntryKind>();
  /** What a hard link to each file (or hard link) copies. */
  private readonly sizes = new Map<string, number>();
  private declared = 0;
  private read = 0;

  constructor(private readonly options: ArchiveOptions) {}

  /** Entries of the tree so far, the root excepted. */
  get files(): number {
    return this.tree.size;
  }

  /** Bytes the files admitted so far unpack to. */
  get unpackedBytes(): number {
    return this.declared;
  }

  /** Checks one entry and adds it to the tree; null for the root directory itself (`./`). */
  admit(entry: RawEntry): AdmittedEntry | null {
    const checked = archivePath(entry.name);
    if (!checked.ok) throw archiveRefused(this.options, checked.reason, entry.name);
    const path = checked.path;
    const kind = entry.kind;
    if (typeof kind === 'object') throw archiveRefused(this.options, kind.refused, path || entry.name);
    if (path === '') {
      if (kind === 'directory') return null;
      throw archiveRefused(this.options, `is a ${KIND_NAMES[kind]} in place of the archive's root`, entry.name);
    }
    this.addParents(path);
    const existing = this.tree.get(path);
    if (existing === 'directory' && kind === 'directory') return { path, kind, size: 0, executable: false, target: null };
    if (existing) throw archiveRefused(this.options, `appears twice (a ${KIND_NAMES[existing]}, then a ${KIND_NAMES[kind]})`, path);
    const admitted = this.admitKind(path, entry, kind);
    this.add(path, kind);
    if (admitted.size > 0) this.addDeclared(path, admitted.size);
    if (kind === 'file' || kind === 'hardlink') this.sizes.set(path, admitted.size);
    return admitted;
  }

  /**
   * Counts `bytes` more read from the archive for `path`: the real size of what unpacks, which a
   * bomb's headers may understate (stops at the cap, whatever the headers said).
   */
  countRead(path: string, bytes: number): void {
    this.read += bytes;
    if (this.read > this.options.maxUnpackedBytes) {
      throw archiveRefused(this.options, `takes the unpacked size over the limit of ${this.options.maxUnpackedBytes} bytes`, path);
    }
  }

  private admitKind(path: string, entry: RawEntry, kind: EntryKind): AdmittedEntry {
    const executable = kind === 'file' && (entry.mode & 0o111) !== 0;
    if (kind !== 'file' && entry.size > 0) throw archiveRefused(this.options, `is a ${KIND_NAMES[kind]} that declares content (${entry.size} bytes)`, path);
    if (kind === 'symlink') {
      const target = symlinkTarget(path, entry.linkTarget ?? '');
      if (!target.ok) throw archiveRefused(this.options, target.reason, path);
      return { path, kind, size: 0, executable, target: entry.linkTarget };
    }
    if (kind === 'hardlink') {
      const target = archivePath(entry.linkTarget ?? '');
      const size = target.ok ? this.sizes.get(target.path) : undefined;
      if (!target.ok || size === undefined) {
        throw archiveRefused(this.options, `is a hard link to ${JSON.stringify(entry.linkTarget)}, which is not a file earlier in the archive`, path);
      }
      return { path, kind, size, executable: false, target: target.path };
    }
    return { path, kind, size: kind === 'file' ? entry.size : 0, executable, target: null };
  }

  /** Adds the directories a path implies; refused when one of them is a file or a link. */
  private addParents(path: string): void {
    const names = path.split('/');
    for (let i = 1; i < names.length; i++) {
      const parent = names.slice(0, i).join('/');
      const kind = this.tree.get(parent);
      if (kind === undefined) this.add(parent, 'directory');
      else if (kind !== 'directory') throw archiveRefused(this.options, `is inside ${JSON.stringify(parent)}, which is a ${KIND_NAMES[kind]}`, path);
    }
  }

  private add(path: string, kind: EntryKind): void {
    if (this.tree.size >= this.options.maxFiles)
      throw archiveRefused(this.options, `takes the archive over the limit of ${this.options.maxFiles} entries`, path);
    this.tree.set(path, kind);
  }

  private addDeclared(path: string, size: number): void {
    this.declared += size;
    if (this.declared > this.options.maxUnpackedBytes) {
      throw archiveRefused(
        this.options,
        `declares ${size} bytes, which takes the unpacked size over the limit of ${this.options.maxUnpackedBytes} bytes`,
        path,
      );
    }
  }
}
