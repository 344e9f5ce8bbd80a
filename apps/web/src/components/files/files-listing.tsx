import { File, Folder, FolderGit2, Link2 } from 'lucide-react';
import { formatBytes, sortEntries, type FilesEntry } from './files-format';

const ICONS = { dir: Folder, file: File, symlink: Link2, submodule: FolderGit2 } as const;

/**
 * One directory of the workspace. Folders open in place, files (and symlinks, whose content is
 * their target) open in the viewer; a submodule has no content in the store, so it is not a link.
 */
export function FilesListing({ entries, onOpen }: { entries: readonly FilesEntry[]; onOpen: (path: string) => void }) {
  return (
    <ul className="divide-y divide-border" data-testid="files-listing" data-count={entries.length}>
      {sortEntries(entries).map((entry) => {
        const Icon = ICONS[entry.type];
        const label = (
          <>
            <Icon aria-hidden className="size-3.5 shrink-0 text-muted" />
            <span className="min-w-0 flex-1 truncate font-mono">
              {entry.name}
              {entry.type === 'dir' ? '/' : ''}
            </span>
            <span className="shrink-0 text-muted tabular-nums">{entry.size === null ? '' : formatBytes(entry.size)}</span>
          </>
        );
        return (
          <li key={entry.path} data-testid="files-entry" data-path={entry.path} data-type={entry.type}>
            {entry.type === 'submodule' ? (
              <span className="flex items-center gap-2 px-3 py-1 text-xs text-muted" title="A submodule: its files are not part of this workspace">
                {label}
              </span>
            ) : (
              <button
                type="button"
                className="flex w-full items-center gap-2 px-3 py-1 text-left text-xs hover:bg-surface-2 focus-visible:bg-surface-2 focus-visible:outline-none"
                onClick={() => onOpen(entry.path)}
                data-testid="files-entry-open"
              >
                {label}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
