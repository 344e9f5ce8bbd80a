// Archives that seed a workspace (uploads of .tar, .tar.gz and .zip): read strictly, refused with
// the first bad entry named, and unpacked without ever writing through a link.
export { inspectArchive } from './inspect-archive';
export { extractArchive, type ExtractResult } from './extract-archive';
export type { ArchiveFormat, ArchiveLimits, ArchiveOptions, ArchiveSummary } from './archive-limits';
