/**
 * Bytes pulled from a source of chunks (a buffer in slices, a decompressor's output) in the sizes
 * a format's reader asks for, holding no more than one request's worth plus one chunk. A source
 * that ends early is a damaged archive: {@link ByteReader.take} and {@link ByteReader.next} throw.
 */
export class ByteReader {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Exactly `n` bytes; null when the source has ended exactly here. */
  async take(n: number): Promise<Buffer | null> {
    while (this.buffered < n && (await this.pull()));
    if (this.buffered === 0) return null;
    if (this.buffered < n) throw new Error('it ends in the middle of an entry');
    return this.shift(n);
  }

  /** The next 1 to `max` bytes, as they come. */
  async next(max: number): Promise<Buffer> {
    while (this.buffered === 0 && (await this.pull()));
    if (this.buffered === 0) throw new Error('it ends in the middle of an entry');
    return this.shift(Math.min(max, this.chunks[0]!.length));
  }

  /** Drops the next `n` bytes. */
  async skip(n: number): Promise<void> {
    for (let left = n; left > 0; ) left -= (await this.next(left)).length;
  }

  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const result = await this.source.next();
    if (result.done) {
      this.ended = true;
      return false;
    }
    if (result.value.length > 0) {
      this.chunks.push(result.value);
      this.buffered += result.value.length;
    }
    return true;
  }

  private shift(n: number): Buffer {
    const parts: Buffer[] = [];
    for (let left = n; left > 0; ) {
      const first = this.chunks[0]!;
      if (first.length <= left) {
        parts.push(first);
        this.chunks.shift();
        left -= first.length;
      } else {
        parts.push(first.subarray(0, left));
        this.chunks[0] = first.subarray(left);
        left = 0;
      }
    }
    this.buffered -= n;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
}

/** A buffer as a source of chunks of at most `size` bytes (views, not copies). */
export async function* slices(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
