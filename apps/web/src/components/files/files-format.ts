import type { RouterOutputs } from '@/lib/api-types';

type FilesView = RouterOutputs['sessions']['files'];
type FilesNode = FilesView['node'];
export type FilesEntry = Extract<FilesNode, { kind: 'dir' }>['entries'][number];
export type FileNode = Extract<FilesNode, { kind: 'file' }>;

/** "512 B", "3.4 KB", "1.0 MB": sizes in listings and the viewer (binary units, short labels). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The breadcrumb trail of a workspace path: the root first, then each directory above it. */
export function crumbs(path: string): { name: string; path: string }[] {
  const out = [{ name: 'workspace', path: '' }];
  if (path === '') return out;
  const parts = path.split('/');
  for (const [i, name] of parts.entries()) out.push({ name, path: parts.slice(0, i + 1).join('/') });
  return out;
}

/** Directories first, then by name: how file browsers list a folder. */
export function sortEntries(entries: readonly FilesEntry[]): FilesEntry[] {
  return [...entries].sort((a, b) => ((a.type === 'dir') !== (b.type === 'dir') ? (a.type === 'dir' ? -1 : 1) : a.name.localeCompare(b.name)));
}

/** The tarball route of the workspace at one event (the dashboard's session cookie authorises it). */
export function downloadHref(sessionId: string, atEvent: number): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/workspace.tar.gz?atEvent=${atEvent}`;
}

/** The tRPC error code of a failed query (`NOT_FOUND`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}
