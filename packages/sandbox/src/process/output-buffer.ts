/**
 * Collects stdout and stderr under one byte budget. Past the budget it keeps nothing more and
 * reports the overflow once, so the supervisor can kill a runaway writer instead of buffering it.
 */
export class OutputBuffer {
  private readonly chunks: { stdout: Buffer[]; stderr: Buffer[] } = { stdout: [], stderr: [] };
  private kept = 0;
  private overflowed = false;

  constructor(
    private readonly limitBytes: number,
    private readonly onOverflow: () => void,
  ) {}

  /** Adds a chunk of one stream; bytes past the budget are dropped. */
  push(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (this.overflowed) return;
    const room = this.limitBytes - this.kept;
    if (chunk.length > room) {
      if (room > 0) this.chunks[stream].push(chunk.subarray(0, room));
      this.kept = this.limitBytes;
      this.overflowed = true;
      this.onOverflow();
      return;
    }
    this.chunks[stream].push(chunk);
    this.kept += chunk.length;
  }

  get truncated(): boolean {
    return this.overflowed;
  }

  /** The text of one stream; a cut multi-byte character at the end becomes U+FFFD. */
  text(stream: 'stdout' | 'stderr'): string {
    return Buffer.concat(this.chunks[stream]).toString('utf8');
  }
}

/** The line appended to output that was cut, so neither the model nor a human mistakes it for all of it. */
export function truncationMarker(limitBytes: number): string {
  return `\n[output truncated: the ${limitBytes}-byte output limit was reached and the process was killed]`;
}
