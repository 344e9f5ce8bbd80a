/** How large an uploaded archive may be, packed and unpacked. */
export interface UploadLimits {
  /** Bytes of the archive as sent (LOOPLANE_UPLOAD_MAX_MB). */
  maxBytes: number;
  /** Bytes its files may unpack to. */
  maxUnpackedBytes: number;
  /** Entries of the tree it may unpack to. */
  maxFiles: number;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/**
 * The limits for an upload cap of `maxMb` MiB: it may unpack to ten times that, but never past
 * 1 GiB, into at most 100,000 entries.
 */
export function uploadLimits(maxMb: number): UploadLimits {
  const maxBytes = Math.floor(maxMb * MIB);
  return { maxBytes, maxUnpackedBytes: Math.min(10 * maxBytes, GIB), maxFiles: 100_000 };
}

/** The default: LOOPLANE_UPLOAD_MAX_MB=100. */
export const DEFAULT_UPLOAD_LIMITS = uploadLimits(100);

/** How long an upload no run has used is kept. */
export const UPLOAD_TTL_MS = 24 * 3600_000;
