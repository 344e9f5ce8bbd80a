/** One 512-byte tar header, decoded (ustar, GNU and v7 layouts). */
export interface TarHeader {
  name: string;
  mode: number;
  size: number;
  /** The type flag as a character: `0` file, `5` directory, `2` symlink, `x` pax, … (`\0` is a file). */
  type: string;
  linkName: string;
  /** A GNU sparse header's `realsize`: what the file unpacks to. */
  sparseSize: number;
}

export const BLOCK = 512;

/** Whether a block is all zeros: the end of the archive. */
export function isZeroBlock(block: Buffer): boolean {
  for (const byte of block) if (byte !== 0) return false;
  return true;
}

/** Bytes of padding after `size` bytes of data, up to the next block. */
export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/** Whether a block has the ustar magic (POSIX `ustar\0` or GNU `ustar `): how a tar archive is recognised. */
export function hasTarMagic(block: Buffer): boolean {
  return block.length >= BLOCK && block.subarray(257, 262).toString('latin1') === 'ustar';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A NUL-terminated field as UTF-8 text; a name that is not UTF-8 is refused rather than guessed at. */
export function textField(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  const field = end < 0 ? bytes : bytes.subarray(0, end);
  try {
    return utf8.decode(field);
  } catch {
    throw new Error('an entry has a name that is not UTF-8 text');
  }
}

/**
 * A numeric field: octal text (NUL or space terminated), or GNU's base-256 for large values. A
 * value past 2^53 comes back as a number that large (its size is refused by the limits anyway).
 */
function numberField(bytes: Buffer): number {
  if (bytes[0]! & 0x80) {
    if (bytes[0] === 0xff) throw new Error('a header has a negative number');
    let value = BigInt(bytes[0]! & 0x7f);
    for (const byte of bytes.subarray(1)) value = (value << 8n) | BigInt(byte);
    return Number(value);
  }
  const text = bytes
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new Error('a header has a malformed number');
  return Number.parseInt(text, 8);
}

/** The header's checksum holds: the sum of its bytes with the checksum field as spaces (unsigned, or signed as some old tars wrote it). */
function checksumHolds(block: Buffer): boolean {
  const stored = numberField(block.subarray(148, 156));
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** Decodes a header block; throws when it is not one (a bad checksum or field). */
export function parseTarHeader(block: Buffer): TarHeader {
  if (!checksumHolds(block)) throw new Error('a header checksum does not match (a damaged archive, or not a tar archive)');
  const type = String.fromCharCode(block[156]!);
  const name = textField(block.subarray(0, 100));
  // POSIX ustar splits a long name into prefix + name; GNU's layout keeps other fields there.
  const posix = block.subarray(257, 263).toString('latin1') === 'ustar\0';
  const prefix = posix ? textField(block.subarray(345, 500)) : '';
  return {
    name: prefix ? `${prefix}/${name}` : name,
    mode: numberField(block.subarray(100, 108)),
    size: numberField(block.subarray(124, 136)),
    type,
    linkName: textField(block.subarray(157, 257)),
    sparseSize: type === 'S' ? numberField(block.subarray(483, 495)) : 0,
  };
}
