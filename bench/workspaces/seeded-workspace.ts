// Deterministic workspace content for the snapshot benchmark: the same files, sizes and bytes on
// every run and machine.
import { createCipheriv, createHash } from 'node:crypto';

/** A deterministic stream of pseudo-random bytes (AES-128-CTR of zeros, keyed by the seed). */
export function seededBytes(seed: string, length: number): Buffer {
  const key = createHash('sha256').update(seed).digest();
  const cipher = createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16, 32));
  return cipher.update(Buffer.alloc(length));
}

/** A pseudo-random number in [0, 1) from a seed. */
export const seededUnit = (seed: string) => seededBytes(seed, 4).readUInt32BE(0) / 2 ** 32;

/** Base64 text of seeded bytes in 76-character lines: `bytes` long, as incompressible as text gets (zlib: ~75 %). */
export function seededText(seed: string, bytes: number): string {
  const base64 = seededBytes(seed, Math.ceil((bytes * 3) / 4)).toString('base64');
  return base64.replace(/(.{76})/g, '$1\n').slice(0, bytes);
}

/** Where file `i` lives: 10 top folders of 500 files, 10 sub-folders of 50 each (`d3/s7/file3712.txt`). */
export const pathOf = (i: number) => `d${Math.floor(i / 500)}/s${Math.floor(i / 50) % 10}/file${i}.txt`;
/**
 * File `i`'s size: 0.2–1.8 × the mean, spread evenly (a fixed permutation of n equal steps, 37 being
 * prime to 10, 500 and 5,000), so every workspace holds exactly its bytes and the same mix of sizes.
 */
export const sizeOf = (ws: { files: number; bytes: number }, i: number) =>
  Math.round((ws.bytes / ws.files) * (0.2 + (1.6 * (((i * 37) % ws.files) + 0.5)) / ws.files));
